; The port a server of the application's own code listens on (indexer/languages/python/frameworks/listen_ports.py):
; uvicorn.run(app, port=8000), app.run(port=5000) (Flask, Sanic), web.run_app(app, port=8080) (aiohttp),
; socketio.run(app, port=5000), serve(app, port=8080) (waitress).
(call
  function: [(attribute attribute: (identifier) @_run) (identifier) @_run]
  arguments: (argument_list (keyword_argument name: (identifier) @_key value: (_) @port))
  (#match? @_run "^(run|run_app|serve)$")
  (#eq? @_key "port")) @listen_call
