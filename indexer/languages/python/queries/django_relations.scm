; Django model relations: a foreign key or one-to-one field assigned in a class body (the class is found in Python).

; user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="profile")
(class_definition
  body: (block
    (assignment
      left: (identifier) @field
      right: (call
        function: [(identifier) (attribute)] @callee
        arguments: (argument_list) @args)) @assign))
