"""BTN 2 (``%btn 2``): the notation of the trick family; seats, pack and trick size come from
the ruleset.

Reading goes up in layers, each a module, as BTN 1's do (:mod:`baloot_conformance.btn`, whose
limits it keeps): lines (:mod:`.lines`: text to checked lines, and the errors of every layer),
statements (:mod:`.statements`: a fast path of one regular expression per statement, and
:mod:`.grammar`: the normative Lark grammar ``grammar/btn2.lark`` for the lines the fast path
leaves, and errors in plain words), hands (:mod:`.builder`: the structural checks against the
table, and the positions such as ``h3.t5.p7``) and the reader (:mod:`.reader`:
``read_btn2(text, path, ruleset_for)``, which asks its caller for the ruleset). The items are
in :mod:`.items`; beside them the canonical writer (:mod:`.writer`) and the JSON form
(:mod:`.json_form`). Nothing here reads YAML or runs a rule: the checker judges the play.
"""
