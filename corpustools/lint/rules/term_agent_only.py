"""A term of a `practice` point that only the agent says: the label rewards reading agent turns.

What: for each `practice` point, each `must_match_all` term that occurs in the normalized
`[AGENT]` turns but in no `[USER]` turn is reported at the term. (A term in no turn at all is
CT601's; `map` points are exempt because maps may come from either role.)

Why: the prompt extracts practices strictly from what the user taught; the agent's turns are
context. A practice label whose term only the agent says either expects the model to break that
rule or names the wrong wording: the user's own words are what a faithful practice repeats.

Example (flagged), where only the agent wrote "config:import":

    - id: import-through-drush
      type: practice
      must_match_all: [config:import, deploy]
"""

from __future__ import annotations

from corpustools.lint.diagnostic import WARNING, Problem
from corpustools.lint.labels import normalized, point_name, points_with_turns, quoted
from corpustools.model.normalize import contains_term

CODE = "CT602"
NAME = "term-agent-only"
SEVERITY = WARNING
OPTIONS = ()
SUPPRESSIBLE = True


def check(ctx, options):
    for point, turns in points_with_turns(ctx):
        if point.type != "practice":
            continue
        for term in point.must_match_all:
            if (normalized(term) and contains_term(turns.agent, term.text)
                    and not contains_term(turns.user, term.text)):
                yield Problem(term.pos, f"term {quoted(term.text)} of practice {point_name(point)} "
                                        f"occurs only in [AGENT] turns; practices come from what "
                                        f"the user taught")
