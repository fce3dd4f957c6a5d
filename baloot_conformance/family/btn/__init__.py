"""BTN 2 (``%btn 2``): the notation of the trick family; seats, pack and trick size come from
the ruleset.

Reading goes up in layers, each a module, as BTN 1's do (:mod:`baloot_conformance.btn`, whose
line layer it shares: UTF-8, line and hand limits): statements (:mod:`.statements`: a fast
path of one regular expression per statement, and :mod:`.grammar`: the normative Lark grammar
``grammar/btn2.lark`` for the lines the fast path leaves, and errors in plain words), hands
(:mod:`.builder`: the structural checks against the table, and the positions such as
``h3.t5.p7``) and the reader (:mod:`.reader`, which asks its caller for the ruleset). The
items are in :mod:`.items`; beside them the canonical writer (:mod:`.writer`) and the JSON form
(:mod:`.json_form`).
"""
