"""Samples for the template rules (CT701-CT704, tests/rules/): the shared valid corpus
(tests/support/corpus.py) with turns appended to its sessions. Both sessions have 4 turns on lines
7-10; an appended turn is on line 11. Paths as `where` shows them, relative to the working folder."""

from __future__ import annotations

from tests.support.corpus import ADMIT_ID, ADMIT_TURNS, ADMIT_UUID, REJECT_ID, REJECT_TURNS, REJECT_UUID, session_text
from tests.support.lint import lint_run

ADMIT_SESSION = f"sessions/{ADMIT_ID}.md"
REJECT_SESSION = f"sessions/{REJECT_ID}.md"
ADMIT_SHOWN, REJECT_SHOWN = f"corpus/{ADMIT_SESSION}", f"corpus/{REJECT_SESSION}"
TEMPLATES = ("CT701", "CT702", "CT703", "CT704")

TEMPLATE_A = "Put the exported YAML for `signup` in `config/sync` and import it with Drush during the deploy."
TEMPLATE_B = "Put the exported YAML for `venue` in `config/staging` and import it with Composer during the deploy."
TEMPLATE_NEAR = ("Put the exported YAML for `venue` in `config/staging` and then import it with Composer "
                 "during the next deploy.")
SECOND_A = "The worker reads the queue of `signup` rows every night and removes the expired ones with `cron`."
SECOND_B = "The worker reads the queue of `venue` rows every night and removes the expired ones with `systemd`."


def with_turns(admit=(), reject=()) -> dict:
    """Overrides appending (TAG, text) turns to the admit and the reject session."""
    return {ADMIT_SESSION: session_text(ADMIT_UUID, ADMIT_TURNS + tuple(admit)),
            REJECT_SESSION: session_text(REJECT_UUID, REJECT_TURNS + tuple(reject))}


def run_of(make_corpus, overrides, **selection):
    """The lint run of the four template rules (and no other) on the shared corpus with `overrides`."""
    run = lint_run(make_corpus(overrides), select=frozenset(TEMPLATES), **selection)
    assert run.crashes == ()
    return run
