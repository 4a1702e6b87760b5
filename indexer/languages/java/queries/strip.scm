; Text left out of signatures: annotations and comments.

[(marker_annotation) (annotation) (line_comment) (block_comment)] @strip
