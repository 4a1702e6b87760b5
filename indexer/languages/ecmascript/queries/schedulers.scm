; Job schedulers (indexer/languages/ecmascript/frameworks/schedulers.py): `cron.schedule(expr, fn)`
; (node-cron), `schedule.scheduleJob([name,] rule, fn)` (node-schedule), `new CronJob(expr, fn)` and
; `CronJob.from({ cronTime, onTick })` (cron). Which receivers are those packages is read in Python.
(call_expression
  function: [(identifier) (member_expression)] @callee
  arguments: (arguments) @args
  (#match? @callee "(^|\\.)(schedule|scheduleJob|from)$")) @call
(new_expression
  constructor: [(identifier) (member_expression)] @callee
  arguments: (arguments) @args
  (#match? @callee "(^|\\.)CronJob$")) @call
