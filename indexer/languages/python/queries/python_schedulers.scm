; Schedulers (indexer/languages/python/frameworks/python_schedulers.py).
; Celery beat: `app.conf.beat_schedule = {...}` / `CELERY_BEAT_SCHEDULE = {...}` (@target, @schedule)
(assignment left: [(identifier) (attribute)] @target right: (dictionary) @schedule)
; `app.conf.update(beat_schedule={...})`
(keyword_argument name: (identifier) @key value: (dictionary) @schedule (#eq? @key "beat_schedule"))
; `sender.add_periodic_task(10.0, cleanup.s(), name=...)`, `scheduler.add_job(func, "cron", ...)`
(call
  function: (attribute attribute: (identifier) @method)
  arguments: (argument_list) @args
  (#any-of? @method "add_periodic_task" "add_job")) @call
