"""The secret scan's figures (issue 31, item 17): the four probe sets of tests/support/scan_probes.py
planted and linted. Each probe the scan can reach is one test; a probe it cannot is an expected
failure that says why (strict: catching it one day fails the test, so docs/security.md is updated).
The last test of each set asserts the target and says the figure: how many pass, and which.

Targets: at most 2 of 132 disguised tokens pass, at most 3 of 36 assignments, 0 of 38 locations,
and 0 of 30 plain sentences are flagged."""

from __future__ import annotations

import pytest

from corpustools.lint.secrets.redaction import redact_secrets
from tests.support.corpus import write_corpus
from tests.support.disguises import caught_markers
from tests.support.lint import lint_run
from tests.support.scan_probes import CONTACT_CODES, SECRET_CODES, assignments, disguises, locations, plain

DISGUISES, ASSIGNMENTS, LOCATIONS, PLAIN = disguises(), assignments(), locations(), plain()
TARGETS = {"disguises": 2, "assignments": 3, "locations": 0, "plain": 0}


def _with_reach(cases):
    return [pytest.param(case, id=case.id, marks=pytest.mark.xfail(strict=True, reason=case.reach))
            if case.reach else pytest.param(case, id=case.id) for case in cases]


def _figure(what: str, passed: list[str], total: int) -> str:
    verb = "are flagged" if what == "plain" else "pass"
    return f"{what}: {len(passed)} of {total} {verb}" + (f" ({', '.join(passed)})" if passed else "")


@pytest.fixture(scope="module")
def caught_disguises(tmp_path_factory) -> set[str]:
    return caught_markers(tmp_path_factory.mktemp("disguises"), DISGUISES)


@pytest.fixture(scope="module")
def caught_assignments(tmp_path_factory) -> set[str]:
    return caught_markers(tmp_path_factory.mktemp("assignments"), ASSIGNMENTS)


@pytest.fixture(scope="module")
def flagged_plain(tmp_path_factory) -> set[str]:
    return caught_markers(tmp_path_factory.mktemp("plain"), PLAIN, CONTACT_CODES)


@pytest.fixture(scope="module")
def reported_locations(tmp_path_factory) -> dict[str, list[tuple[str, str, int]]]:
    """Location name -> (code, path, line) of every secret diagnostic of its corpus."""
    base = tmp_path_factory.mktemp("locations")
    return {location.name: [(d.code, d.path, d.line) for d in lint_run(write_corpus(base / location.name,
                                                                                   location.files)).diagnostics
                            if d.code in SECRET_CODES]
            for location in LOCATIONS}


def _found_where_planted(location, reported) -> bool:
    at = redact_secrets("/" + location.at)  # paths are reported redacted
    return any(code == "CT501" and path.endswith(at) and location.line in (None, line)
               for code, path, line in reported[location.name])


def test_the_sets_have_the_issues_sizes():
    assert (len(DISGUISES), len(ASSIGNMENTS), len(LOCATIONS), len(PLAIN)) == (132, 36, 38, 30)
    for cases in (DISGUISES, ASSIGNMENTS, PLAIN):
        assert len({case.id for case in cases}) == len(cases)
    assert len({location.name for location in LOCATIONS}) == len(LOCATIONS)
    assert {case.family for case in DISGUISES} >= {"invisible", "lookalike", "escape", "encoding", "base64",
                                                   "emphasis", "tag", "comment", "glued", "lines"}


@pytest.mark.parametrize("case", _with_reach(DISGUISES))
def test_disguise_is_caught(caught_disguises, case):
    assert case.marker in caught_disguises, f"{case.id} ({case.family}) passed the secret scan"


@pytest.mark.parametrize("case", _with_reach(ASSIGNMENTS))
def test_assignment_is_caught(caught_assignments, case):
    assert case.marker in caught_assignments, f"{case.id} passed the secret scan"


@pytest.mark.parametrize("location", LOCATIONS, ids=[location.name for location in LOCATIONS])
def test_location_is_scanned(reported_locations, location):
    assert _found_where_planted(location, reported_locations), \
        f"{location.name}: no CT501 at {location.at}:{location.line}; secret findings: {reported_locations[location.name]}"


@pytest.mark.parametrize("case", PLAIN, ids=[case.id for case in PLAIN])
def test_plain_sentence_is_not_flagged(flagged_plain, case):
    assert case.marker not in flagged_plain, f"{case.id} was flagged"


def test_figures(caught_disguises, caught_assignments, reported_locations, flagged_plain, capsys):
    passed = {
        "disguises": [case.id for case in DISGUISES if case.marker not in caught_disguises],
        "assignments": [case.id for case in ASSIGNMENTS if case.marker not in caught_assignments],
        "locations": [loc.name for loc in LOCATIONS if not _found_where_planted(loc, reported_locations)],
        "plain": [case.id for case in PLAIN if case.marker in flagged_plain],
    }
    totals = {"disguises": len(DISGUISES), "assignments": len(ASSIGNMENTS), "locations": len(LOCATIONS),
              "plain": len(PLAIN)}
    figures = [_figure(what, passed[what], totals[what]) + f" (target: at most {TARGETS[what]})" for what in TARGETS]
    with capsys.disabled():
        print("\nthe secret scan's figures:\n  " + "\n  ".join(figures))
    assert all(len(passed[what]) <= TARGETS[what] for what in TARGETS), "; ".join(figures)
    # The probes known to be out of reach are exactly the ones that pass (docs/security.md names them).
    assert passed["disguises"] == [case.id for case in DISGUISES if case.reach], figures[0]
    assert passed["assignments"] == [case.id for case in ASSIGNMENTS if case.reach], figures[1]
