; Classes used as values: the object of an attribute access (User.objects, models.User.DoesNotExist)
; and an argument (isinstance(x, User), select(User), get_object_or_404(models.User, pk=1),
; isinstance(x, (A, B))). Capitalised names only (checked in Python too: not ALL_CAPS constants).

(attribute
  object: (identifier) @use
  (#match? @use "^_*[A-Z]"))

(attribute
  object: (attribute
    attribute: (identifier) @last) @use
  (#match? @last "^_*[A-Z]"))

(argument_list
  [(identifier) @use
   (attribute attribute: (identifier) @last) @use
   (keyword_argument value: [(identifier) @use (attribute attribute: (identifier) @last) @use])
   (tuple [(identifier) @use (attribute attribute: (identifier) @last) @use])
   (list [(identifier) @use (attribute attribute: (identifier) @last) @use])]
  (#match? @use "^_*[A-Za-z0-9_.]*[A-Z]"))

; model = User / serializer_class = serializers.ArticleSerializer / renderer_classes = (JSONRenderer,)
(assignment
  right: [(identifier) @use
          (attribute attribute: (identifier) @last) @use
          (tuple [(identifier) @use (attribute attribute: (identifier) @last) @use])
          (list [(identifier) @use (attribute attribute: (identifier) @last) @use])]
  (#match? @use "^_*[A-Za-z0-9_.]*[A-Z]"))
