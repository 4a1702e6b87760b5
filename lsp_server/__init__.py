"""Front ends: the ``ripple`` command line (and, later, the pygls language server).

Architecture invariant: front ends translate a request into one call of the analysis API and the answer
back; they hold no SQL, no Cypher and no extraction logic.
"""
