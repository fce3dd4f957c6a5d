"""The conformance suite: an engine asked, case by case, through the adapter protocol.

:mod:`~baloot_conformance.suite.runner` runs the cases (fixtures and generated games) and
judges the engine's answers with the checker; :mod:`~baloot_conformance.suite.cases` says
what a case is and what the engine is shown of it; :mod:`~baloot_conformance.suite.judging`
makes each Sawa and foul call a fixture judges a case of its own, a ``judge`` request;
:mod:`~baloot_conformance.suite.engine_process` runs the engine's adapter as a child process
it never trusts; :mod:`~baloot_conformance.suite.protocol` defines and validates the
messages; :mod:`~baloot_conformance.suite.expectations` reads and writes an engine's expected
failures; :mod:`~baloot_conformance.suite.reference_adapter` is the kit's own interpreter
behind the protocol (``python -m baloot_conformance.suite.reference_adapter``);
:mod:`~baloot_conformance.suite.smoke` holds ``--smoke``'s fixed selection and the command
that reruns one case, :mod:`~baloot_conformance.suite.trace` the protocol trace of a run,
:mod:`~baloot_conformance.suite.repeat` the repeated runs that catch an engine whose
answers differ. The protocol's version 2 carries the trick family's BTN 2 fixtures:
:mod:`~baloot_conformance.suite.protocol2` defines its messages,
:mod:`~baloot_conformance.suite.family_cases` runs and judges its cases,
:mod:`~baloot_conformance.suite.family_truth` says what the family's reference engine answers,
and :mod:`~baloot_conformance.suite.family_reference_adapter` answers with it.
"""
