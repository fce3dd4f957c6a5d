"""The engine adapter protocol (``docs/protocol.md``): the kit's side of the conversation
(:mod:`.process`, :mod:`.protocol`) and the reference adapter (:mod:`.reference`)."""
