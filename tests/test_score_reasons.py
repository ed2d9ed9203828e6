"""The text of every reason and advisory kind: the contract of docs/scoring.md, made from typed
values at the report edge and read back field by field."""

import json

import pytest

from corpustools.score.reasons import (
    Advisory,
    AdvisoryKind,
    FixtureStatus,
    Reason,
    ReasonKind,
    Verdict,
    forbidden_match,
    missed_point,
    parse_advisory,
    parse_reason,
    phantom_over_budget,
)

REASONS = [
    (missed_point("expire-via-queue"), "missed-point:expire-via-queue"),
    (forbidden_match("expire-via-queue", "ticket NL-12"), "forbidden-match:expire-via-queue:ticket NL-12"),
    (forbidden_match("p", "a: b"), "forbidden-match:p:a: b"),  # a term may hold a colon
    (Reason(ReasonKind.NON_EMPTY_WHERE_EMPTY), "non-empty-where-empty"),
    (phantom_over_budget(2, 0), "phantom-over-budget:2>0"),
    (Reason(ReasonKind.SIDECAR_INVALID), "sidecar-invalid"),
    (Reason(ReasonKind.SIDECAR_INVALID, detail="c/expected/x.yaml:3:1: bad"), "sidecar-invalid:c/expected/x.yaml:3:1: bad"),
    (Reason(ReasonKind.MISSING_RESULT), "missing-result"),
    (Reason(ReasonKind.INVALID_RESULT, detail="run1/x.json: /practice/0: 'kk_confidence' is a required property"),
     "invalid-result:run1/x.json: /practice/0: 'kk_confidence' is a required property"),
]

ADVISORIES = [
    (Advisory(AdvisoryKind.TYPE_MISMATCH, point_id="p", proposal="map[0]"), "type-mismatch:p:map[0]"),
    (Advisory(AdvisoryKind.NEAR_MISS, point_id="p", text="queue worker", proposal="practice[1]"),
     "near-miss:p:queue worker:practice[1]"),
    (Advisory(AdvisoryKind.NEAR_MISS, point_id="p", text="ratio 1:2", proposal="practice[0]"),
     "near-miss:p:ratio 1:2:practice[0]"),
    (Advisory(AdvisoryKind.DUPLICATE, point_id="p"), "duplicate:p"),
    (Advisory(AdvisoryKind.MERGED, proposal="practice[0]"), "merged:practice[0]"),
    (Advisory(AdvisoryKind.CONTRACT, proposal="practice[0]", text="tag-case"), "contract:practice[0]:tag-case"),
    (Advisory(AdvisoryKind.INVENTED_IDENTIFIER, proposal="map[2]", text="std::vector"),
     "invented-identifier:map[2]:std::vector"),
]


@pytest.mark.parametrize(("reason", "text"), REASONS, ids=[t for _, t in REASONS])
def test_every_reason_kind_prints_its_contract_text_and_reads_back(reason, text):
    assert str(reason) == text
    assert parse_reason(text) == reason


def test_every_reason_kind_is_covered():
    assert {r.kind for r, _ in REASONS} == set(ReasonKind)


@pytest.mark.parametrize(("advisory", "text"), ADVISORIES, ids=[t for _, t in ADVISORIES])
def test_every_advisory_kind_prints_its_contract_text_and_reads_back(advisory, text):
    assert str(advisory) == text
    assert parse_advisory(text) == advisory


def test_every_advisory_kind_is_covered():
    assert {a.kind for a, _ in ADVISORIES} == set(AdvisoryKind)


@pytest.mark.parametrize("text", ["", "missed-point", "missed-point:", "forbidden-match:p", "phantom-over-budget:2",
                                  "phantom-over-budget:x>0", "missing-result:x", "invalid-result",
                                  "non-empty-where-empty:x", "no-such-kind:x"])
def test_text_no_reason_prints_is_refused(text):
    with pytest.raises(ValueError):
        parse_reason(text)


@pytest.mark.parametrize("text", ["", "duplicate", "duplicate:a:b", "merged:", "type-mismatch:p",
                                  "near-miss:p:term", "contract:practice[0]", "missed-point:p"])
def test_text_no_advisory_prints_is_refused(text):
    with pytest.raises(ValueError):
        parse_advisory(text)


def test_verdicts_and_statuses_print_and_serialise_as_their_words():
    assert [f"{v}" for v in Verdict] == ["PASS", "FAIL", "UNCHECKED"]
    assert [str(s) for s in FixtureStatus] == ["ok", "sidecar-invalid", "missing-result", "invalid-result"]
    assert f"{Verdict.FAIL:<9}|" == "FAIL     |"
    assert json.dumps([Verdict.PASS.value, FixtureStatus.OK.value]) == '["PASS", "ok"]'
