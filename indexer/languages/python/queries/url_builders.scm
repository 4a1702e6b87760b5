; Functions returning a string built from pieces (indexer/languages/python/frameworks/url_builders.py).
(return_statement [(string) (concatenated_string) (binary_operator) (call)] @built_return)
