; Functions returning a string built from pieces (indexer/languages/ecmascript/frameworks/url_builders.py).
(return_statement [(template_string) (binary_expression)] @built_return)

(arrow_function body: [(template_string) (binary_expression)] @built_return)
