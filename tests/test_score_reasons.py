"""The text of every reason and advisory kind: the contract of docs/scoring.md, made from typed
values at the report edge and read back field by field."""

import json

import pytest

from corpustools.model.status import FixtureStatus
from corpustools.score.reasons import Advisory, AdvisoryKind, Reason, ReasonKind, Verdict, parse_advisory, parse_reason

REASONS = [
    (Reason(ReasonKind.MISSED_POINT, point_id="expire-via-queue"), "missed-point:expire-via-queue"),
    (Reason(ReasonKind.FORBIDDEN_MATCH, point_id="expire-via-queue", term="ticket NL-12"),
     "forbidden-match:expire-via-queue:ticket NL-12"),
    (Reason(ReasonKind.FORBIDDEN_MATCH, point_id="p", term="a: b"), "forbidden-match:p:a: b"),  # a term may hold a colon
    (Reason(ReasonKind.FIELD_MISMATCH, pointer="/queue"), "field-mismatch:/queue"),
    (Reason(ReasonKind.FIELD_MISMATCH, pointer="/route/a:b"), "field-mismatch:/route/a:b"),  # a key may hold a colon
    (Reason(ReasonKind.NON_EMPTY_WHERE_EMPTY), "non-empty-where-empty"),
    (Reason(ReasonKind.PHANTOM_OVER_BUDGET, phantoms=2, budget=0), "phantom-over-budget:2>0"),
    (Reason(ReasonKind.SIDECAR_INVALID), "sidecar-invalid"),
    (Reason(ReasonKind.SIDECAR_INVALID, detail="c/expected/x.yaml:3:1: bad"), "sidecar-invalid:c/expected/x.yaml:3:1: bad"),
    (Reason(ReasonKind.MISSING_RESULT), "missing-result"),
    (Reason(ReasonKind.UNREADABLE_RESULT, detail="run1/x.json: cannot read: Permission denied"),
     "unreadable-result:run1/x.json: cannot read: Permission denied"),
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
    (Advisory(AdvisoryKind.INVALID_FORMAT, text="content inside the fence would pass"),
     "invalid-format:content inside the fence would pass"),
    (Advisory(AdvisoryKind.INVALID_FORMAT, text="content without the extra key /notes would fail (missed-point:p)"),
     "invalid-format:content without the extra key /notes would fail (missed-point:p)"),
]


CASES = REASONS + ADVISORIES


@pytest.mark.parametrize(("value", "text"), CASES, ids=[t for _, t in CASES])
def test_every_kind_prints_its_contract_text_and_reads_back(value, text):
    assert str(value) == text
    assert (parse_reason if isinstance(value, Reason) else parse_advisory)(text) == value


def test_every_kind_is_covered():
    assert {v.kind for v, _ in CASES} == set(ReasonKind) | set(AdvisoryKind)


REFUSED = [(parse_reason, text) for text in (
    "", "missed-point", "missed-point:", "forbidden-match:p", "phantom-over-budget:2", "phantom-over-budget:x>0",
    "missing-result:x", "invalid-result", "unreadable-result", "non-empty-where-empty:x", "no-such-kind:x",
    "field-mismatch", "field-mismatch:queue")] + [
    (parse_advisory, text) for text in (
        "", "duplicate", "duplicate:a:b", "merged:", "type-mismatch:p", "near-miss:p:term", "contract:practice[0]",
        "missed-point:p")]


@pytest.mark.parametrize(("parse", "text"), REFUSED, ids=[f"{p.__name__}-{t}" for p, t in REFUSED])
def test_text_no_reason_or_advisory_prints_is_refused(parse, text):
    with pytest.raises(ValueError):
        parse(text)


def test_verdicts_and_statuses_print_and_serialise_as_their_words():
    assert [f"{v}" for v in Verdict] == ["PASS", "FAIL", "UNCHECKED"]
    assert [str(s) for s in FixtureStatus] == ["ok", "sidecar-invalid", "missing-result", "unreadable-result",
                                               "invalid-result"]
    assert f"{Verdict.FAIL:<9}|" == "FAIL     |"
    assert json.dumps([Verdict.PASS.value, FixtureStatus.OK.value]) == '["PASS", "ok"]'
