; Job schedulers (indexer/languages/ecmascript/frameworks/schedulers.py): `cron.schedule(expr, fn)`
; (node-cron), `schedule.scheduleJob([name,] rule, fn)` (node-schedule), `new CronJob(expr, fn)` and
; `CronJob.from({ cronTime, onTick })` (cron). Which receivers are those packages is read in Python.
; The name is matched on the identifier or the member's property, never on the whole callee: a callee's
; text is the chain below it (`a.pipe(f)...pipe(f).schedule`), and a regular expression over it at every
; link of a 3,000-link chain cost 1.2 s.
(call_expression
  function: [(identifier) @_name (member_expression property: (_) @_name)] @callee
  arguments: (arguments) @args
  (#match? @_name "^(schedule|scheduleJob|from)$")) @call
(new_expression
  constructor: [(identifier) @_name (member_expression property: (_) @_name)] @callee
  arguments: (arguments) @args
  (#eq? @_name "CronJob")) @call
