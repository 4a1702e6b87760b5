; Text left out of signatures: annotations and comments.

[(annotation) (line_comment) (block_comment)] @strip
