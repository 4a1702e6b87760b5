; Names a function binds otherwise than as a container (indexer/languages/python/containers.py):
; parameters, assignments, loop and `as` targets, `:=`. A container of that name in an enclosing scope
; is not what the name means there (`global x` undoes it). Run only for a file that holds a container
; and calls through one (few do), so not in the shared pass with containers.scm.
(parameters [
  (identifier) @shadow.param
  (typed_parameter (identifier) @shadow.param)
  (default_parameter name: (identifier) @shadow.param)
  (typed_default_parameter name: (identifier) @shadow.param)
  (list_splat_pattern (identifier) @shadow.param)
  (dictionary_splat_pattern (identifier) @shadow.param)])
(assignment left: [(identifier) @shadow
                   (pattern_list (identifier) @shadow) (tuple_pattern (identifier) @shadow)
                   (list_pattern (identifier) @shadow)])
(augmented_assignment left: (identifier) @shadow)
(for_statement left: [(identifier) @shadow (pattern_list (identifier) @shadow) (tuple_pattern (identifier) @shadow)])
(as_pattern alias: (as_pattern_target (identifier) @shadow))
(named_expression name: (identifier) @shadow)
(global_statement (identifier) @shadow.global)
(nonlocal_statement (identifier) @shadow.global)
; A name passed as an argument: a parameter of that name may hold the container (PyCG dicts/param).
(argument_list (identifier) @shadow.passed)
(keyword_argument value: (identifier) @shadow.passed)
