"""A term that only the wrong speaker says: the label rewards reading turns the prompt must not learn from.

What: for each point whose item type declares `taught_by` in corpus.yaml's output contract, each
`must_match_all` term that occurs in the normalized turns of the other speaker but in no turn of a
`taught_by` speaker is reported at the term (an entry of alternatives, at the entry, when some
alternative is said by the other speaker and none by a `taught_by` speaker). (A term in no turn at all is CT601's.) In the built-in
contract, `practice` is taught by the user (`[USER]` turns) and `map` points are exempt, because
maps may come from either role; see docs/contracts.md for how a corpus declares its own.

Why: the shipped prompt extracts practices strictly from what the user taught; the agent's turns
are context. A practice label whose term only the agent says either expects the model to break
that rule or names the wrong wording: the user's own words are what a faithful practice repeats.

Example (flagged), where only the agent wrote "config:import":

    - id: import-through-drush
      type: practice
      must_match_all: [config:import, deploy]
"""

from __future__ import annotations

from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.families.labels import entry_named, matching, normalized, point_name, points_with_turns
from corpustools.lint.options import NoOptions
from corpustools.model.contract import AGENT, SPEAKERS, USER

CODE = "CT602"
NAME = "term-agent-only"
SEVERITY = Severity.WARNING
OPTIONS = ()
SUPPRESSIBLE = True
SCOPE = "fixture"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    contract = ctx.corpus.contract
    if contract is None:  # a broken output contract: its problems are CT003's
        return
    by = matching(ctx)
    said_in, said = None, {}
    for point, turns in points_with_turns(ctx):
        taught_by = contract.taught_by(point.type)
        others = [speaker for speaker in SPEAKERS if speaker not in taught_by]
        if not taught_by or not others or not contract.tags(others[0]):
            continue
        if turns is not said_in:  # a session's points come together: its turns are cut once
            said_in, said = turns, {USER: turns.user, AGENT: turns.agent}
        for entry in point.must_match_all:
            terms = [t for t in entry.terms if normalized(t)]
            if (any(by.contains(said[others[0]], t.text) for t in terms)
                    and not any(by.contains(said[speaker], t.text) for t in terms for speaker in taught_by)):
                yield Problem(entry.pos, f"{entry_named(entry)} of {point.type} "
                                         f"{point_name(point)} occurs only in {contract.tag_list(others[0])} turns; "
                                         f"{point.type}s come from what the {' or the '.join(taught_by)} taught")
