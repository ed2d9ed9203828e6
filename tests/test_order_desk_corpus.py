"""The third shipped corpus, fixtures/order-desk (issue 30, part 4): order lines whose quantity and
unit are pinned with `item_fields`. Its gold passes, a faithful paraphrase passes, and each
fixture's plausible wrong figure fails for the reason it was written to fail.

These run the real commands from the repository root.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from corpustools.cli import main

ROOT = Path(__file__).resolve().parents[1]
CORPUS = "fixtures/order-desk"
GOLD = ROOT / CORPUS / "gold"

@pytest.fixture(autouse=True)
def _at_repository_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def gold(fixture_id: str) -> dict:
    return json.loads((GOLD / f"{fixture_id}.json").read_text(encoding="utf-8"))


def score_one(tmp_path: Path, capsys, fixture_id: str, answer: dict) -> dict:
    """Score `answer` as the only result of a run; the fixture's entry of the JSON report."""
    run = tmp_path / "run"
    run.mkdir()
    (run / f"{fixture_id}.json").write_text(json.dumps(answer), encoding="utf-8")
    assert main(["score", CORPUS, str(run), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    return next(f for f in report["fixtures"] if f["id"] == fixture_id)


def test_provenance_record_matches_the_corpus(capsys):
    assert main(["provenance", "verify", "authoring/order-desk-provenance.yaml"]) == 0, capsys.readouterr()


def test_every_gold_output_satisfies_the_output_schema():
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(json.loads((ROOT / CORPUS / "output.schema.json").read_text(encoding="utf-8")))
    golds = sorted(GOLD.glob("*.json"))
    assert len(golds) == 16
    for path in golds:
        assert not list(validator.iter_errors(json.loads(path.read_text(encoding="utf-8")))), path.name


def test_strict_lint_of_the_order_desk_corpus_reports_nothing(capsys):
    code = main(["lint", CORPUS, "--strict"])
    out = capsys.readouterr()
    assert (code, out.out, out.err) == (0, "All checks passed.\n", "")


def test_gold_outputs_pass_every_fixture_with_every_field_right(capsys):
    assert main(["score", CORPUS, str(GOLD), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    aggregate = report["aggregate"]
    assert aggregate["fixtures_passed"] == aggregate["fixtures_total"] == 16
    assert aggregate["points_matched"] == aggregate["points_total"] == 40
    assert aggregate["phantoms"] == 0
    assert aggregate["gate_correct"] == aggregate["gate_total"] == 3
    assert all(f["matched"] for fixture in report["fixtures"] for f in fixture["fields"])


def lines(*rows: tuple[str, float, str]) -> Callable[[dict], None]:
    return lambda answer: answer.update(lines=[{"product": p, "quantity": q, "unit": u} for p, q, u in rows])


def line(index: int, **values) -> Callable[[dict], None]:
    return lambda answer: answer["lines"][index].update(values)


def add(product: str, quantity: float, unit: str) -> Callable[[dict], None]:
    return lambda answer: answer["lines"].append({"product": product, "quantity": quantity, "unit": unit})


# A careful clerk's other wording of each order fixture's gold: the product terms must survive it.
PARAPHRASES = {
    "order-plain-01": lines(("Free range eggs", 2, "tray"), ("Whole milk", 12.0, "L"), ("Butter, unsalted", 3, "kg"),
                            ("Vanilla paste", 1, "tub")),
    "order-amended-02": lines(("Eggs", 16, "tray"), ("T55 flour", 50, "kg"), ("Sunflower seeds", 7.5, "kg")),
    "order-decimal-02": lines(("Yeast, fresh", 0.5, "kg"), ("Matcha", 500, "g"), ("Cinnamon (ground)", 1.25, "kg")),
    "order-converted-01": lines(("Oat milk (barista)", 4, "case"), ("Whole milk", 8, "L"),
                                ("Espresso beans, house blend", 3, "bag")),
    "order-converted-02": lines(("12oz takeaway cups", 1, "case"), ("Cup lids", 3, "sleeve"), ("8oz cups", 2, "case")),
    "order-partial-02": lines(("Semisweet couverture 64%", 10, "kg"), ("Caster sugar", 15, "kg")),
    "order-express-01": lines(("Whole milk", 10, "L"), ("Double cream", 4, "L"), ("Clotted cream (1 kg tubs)", 2, "tub")),
    "order-rescheduled-01": lines(("Rye flour, dark", 50, "kg"), ("Wholemeal flour", 25, "kg"), ("Pumpkin seeds", 5, "kg"),
                                  ("Caraway seeds", 2, "kg")),
}


@pytest.mark.parametrize("fixture_id", sorted(PARAPHRASES))
def test_a_faithful_paraphrase_of_the_gold_passes(fixture_id, tmp_path, capsys):
    answer = gold(fixture_id)
    PARAPHRASES[fixture_id](answer)
    entry = score_one(tmp_path, capsys, fixture_id, answer)
    assert (entry["verdict"], entry["reasons"]) == ("PASS", [])


def edits(*steps: Callable[[dict], None]) -> Callable[[dict], None]:
    def apply(answer: dict) -> None:
        for step in steps:
            step(answer)
    return apply


# Other words and number forms a careful answer may use (found by the second reader's review): the
# product named in another order or spelling, a whole number written as a float.
OTHER_WORDS = [
    ("order-converted-01", "whole milk named the other way round", line(1, product="Milk, whole")),
    ("order-converted-02", "cup sizes in ounces", edits(line(0, product="12-ounce takeaway cups"),
                                                        line(2, product="8 ounce cups"))),
    ("order-partial-02", "semi-sweet hyphenated", line(0, product="Semi-sweet couverture")),
    ("order-express-01", "the only milk named without its type", line(0, product="Milk")),
    ("order-decimal-01", "whole quantities written as floats", edits(line(1, quantity=25.0), line(2, quantity=1.0))),
]


@pytest.mark.parametrize(("fixture_id", "wording", "edit"), OTHER_WORDS, ids=[f"{c[0]}: {c[1]}" for c in OTHER_WORDS])
def test_a_faithful_answer_in_other_words_passes(fixture_id, wording, edit, tmp_path, capsys):
    answer = copy.deepcopy(gold(fixture_id))
    edit(answer)
    entry = score_one(tmp_path, capsys, fixture_id, answer)
    assert (entry["verdict"], entry["reasons"]) == ("PASS", []), wording


MISSED_LINE = "phantom-over-budget:1>0"
# Each fixture's plausible wrong answer: the gold with one figure, unit, line or field wrong, and
# the reasons it must fail with. A line with the right product and a wrong figure matches no point:
# the point is missed and the line is a phantom.
WRONG = [
    ("order-plain-01", "eggs counted, not trays", line(0, quantity=60), ["missed-point:eggs-2-trays", MISSED_LINE]),
    ("order-plain-01", "the butter price as its quantity", line(2, quantity=7.9), ["missed-point:butter-3-kg", MISSED_LINE]),
    ("order-amended-01", "the butter before the change", line(0, quantity=10), ["missed-point:butter-15-kg", MISSED_LINE]),
    ("order-amended-02", "the clerk's misread", line(0, quantity=4), ["missed-point:eggs-16-trays", MISSED_LINE]),
    ("order-amended-02", "the later trays as a second line", lambda a: (line(0, quantity=14)(a), add("eggs", 2, "tray")(a)),
     ["missed-point:eggs-16-trays", "phantom-over-budget:2>0"]),
    ("order-amended-02", "the removed rye kept", add("dark rye flour", 25, "kg"), [MISSED_LINE]),
    ("order-amended-02", "the eggs before the 2 more", line(0, quantity=14), ["missed-point:eggs-16-trays", MISSED_LINE]),
    ("order-amended-02", "the seeds before the change", line(2, quantity=5), ["missed-point:sunflower-seeds-7-5-kg", MISSED_LINE]),
    ("order-decimal-01", "2,5 read as 25", line(0, quantity=25), ["missed-point:pistachio-paste-2-5-kg", MISSED_LINE]),
    ("order-decimal-02", "last month's yeast", line(0, quantity=5), ["missed-point:fresh-yeast-0-5-kg", MISSED_LINE]),
    ("order-decimal-02", "500 in the wrong unit", line(1, unit="kg"), ["missed-point:matcha-500-g", MISSED_LINE]),
    ("order-decimal-02", "the decimal point lost", line(2, quantity=125), ["missed-point:cinnamon-1-25-kg", MISSED_LINE]),
    ("order-decimal-02", "the matcha converted to kilos", line(1, quantity=0.5, unit="kg"),
     ["missed-point:matcha-500-g", MISSED_LINE]),
    ("order-decimal-02", "the yeast converted to grams", line(0, quantity=500, unit="g"),
     ["missed-point:fresh-yeast-0-5-kg", MISSED_LINE]),
    ("order-converted-01", "the customer's litres", line(0, quantity=20, unit="L"), ["missed-point:oat-milk-4-cases", MISSED_LINE]),
    ("order-converted-01", "4 cases converted back to litres", line(0, quantity=24, unit="L"),
     ["missed-point:oat-milk-4-cases", MISSED_LINE]),
    ("order-converted-01", "the other case count offered", line(0, quantity=3), ["missed-point:oat-milk-4-cases", MISSED_LINE]),
    ("order-converted-01", "the espresso before the change", line(2, quantity=2), ["missed-point:espresso-beans-3-bags", MISSED_LINE]),
    ("order-converted-02", "pieces as cases", line(0, quantity=1000), ["missed-point:cups-12-oz-1-case", MISSED_LINE]),
    ("order-converted-02", "pieces as sleeves", line(1, quantity=300), ["missed-point:lids-3-sleeves", MISSED_LINE]),
    ("order-converted-02", "the clerk's cup count as cases", line(2, quantity=2000), ["missed-point:cups-8-oz-2-cases", MISSED_LINE]),
    ("order-converted-02", "the cup sizes swapped", lambda a: (line(0, quantity=2)(a), line(2, quantity=1)(a)),
     ["missed-point:cups-12-oz-1-case", "missed-point:cups-8-oz-2-cases", "phantom-over-budget:2>0"]),
    ("order-arithmetic-01", "the increment, not the total", line(0, quantity=2), ["missed-point:eggs-8-trays", MISSED_LINE]),
    ("order-arithmetic-01", "last week's cream, not doubled", line(1, quantity=4), ["missed-point:double-cream-8-l", MISSED_LINE]),
    ("order-arithmetic-01", "last week's eggs", line(0, quantity=6), ["missed-point:eggs-8-trays", MISSED_LINE]),
    ("order-partial-01", "the out-of-stock hazelnuts kept", add("whole hazelnuts", 5, "kg"), [MISSED_LINE]),
    ("order-partial-01", "the priced almond flour at its price break", add("almond flour", 10, "kg"), [MISSED_LINE]),
    ("order-partial-01", "the vanilla before the change", line(1, quantity=3), ["missed-point:vanilla-paste-2-tubs", MISSED_LINE]),
    ("order-partial-02", "the substitute named with its original", line(0, product="semisweet couverture (for extra-bitter)"),
     ["forbidden-match:semisweet-couverture-10-kg:extra bitter"]),
    ("order-partial-02", "the unavailable original", line(0, product="70% dark couverture"),
     ["missed-point:semisweet-couverture-10-kg", MISSED_LINE]),
    ("order-partial-02", "the declined substitute kept", add("frozen raspberries", 1, "bag"), [MISSED_LINE]),
    ("order-express-01", "the pack weight as the unit", line(2, unit="kg"), ["missed-point:clotted-cream-2-tubs", MISSED_LINE]),
    ("order-express-01", "the party of 40 as the milk", line(0, quantity=40), ["missed-point:whole-milk-10-l", MISSED_LINE]),
    ("order-express-01", "the regular van", lambda a: a.update(delivery_day="thursday", rush=False),
     ["field-mismatch:/delivery_day", "field-mismatch:/rush"]),
    ("order-rescheduled-01", "the day first asked for, on Express", lambda a: a.update(delivery_day="thursday", rush=True),
     ["field-mismatch:/delivery_day", "field-mismatch:/rush"]),
    ("order-rescheduled-01", "the declined Express taken as rush", lambda a: a.update(rush=True), ["field-mismatch:/rush"]),
    ("order-buried-01", "the free replacement as a line", add("eggs", 2, "tray"), ["forbidden-match:butter-4-kg:egg", MISSED_LINE]),
    ("order-buried-01", "the espresso before the change", line(2, quantity=6), ["missed-point:espresso-beans-4-bags", MISSED_LINE]),
    ("order-buried-01", "the credited flour as a line", add("T55 bread flour", 25, "kg"),
     ["forbidden-match:butter-4-kg:flour", MISSED_LINE]),
    ("no-order-quote-01", "the prospect's weekly quantities booked",
     lambda a: a.update(status="confirmed", delivery_day="thursday", lines=[{"product": "unsalted butter", "quantity": 20, "unit": "kg"}]),
     ["field-mismatch:/status", "field-mismatch:/delivery_day", "non-empty-where-empty", MISSED_LINE]),
    ("no-order-on-hold-01", "the order on stop taken as booked",
     lambda a: a.update(status="confirmed", delivery_day="tuesday", lines=[{"product": "eggs", "quantity": 3, "unit": "tray"}]),
     ["field-mismatch:/status", "field-mismatch:/delivery_day", "non-empty-where-empty", MISSED_LINE]),
    ("order-cancelled-01", "the cancelled lines kept", lines(("eggs", 4, "tray")), ["non-empty-where-empty", MISSED_LINE]),
    ("order-cancelled-01", "the cancelled order read as booked",
     lambda a: a.update(status="confirmed", delivery_day="saturday", lines=[{"product": "eggs", "quantity": 4, "unit": "tray"}]),
     ["field-mismatch:/status", "field-mismatch:/delivery_day", "non-empty-where-empty", MISSED_LINE]),
]


@pytest.mark.parametrize(("fixture_id", "wrong", "edit", "reasons"), WRONG, ids=[f"{c[0]}: {c[1]}" for c in WRONG])
def test_a_plausible_wrong_answer_fails_for_its_reason(fixture_id, wrong, edit, reasons, tmp_path, capsys):
    answer = copy.deepcopy(gold(fixture_id))
    edit(answer)
    entry = score_one(tmp_path, capsys, fixture_id, answer)
    assert (entry["verdict"], entry["reasons"]) == ("FAIL", reasons), wrong


@pytest.mark.parametrize("quantity", ["2.5", "2,5"])
def test_a_quantity_written_as_a_string_fails_as_an_invalid_output(quantity, tmp_path, capsys):
    # The prompt asks for a JSON number; the schema refuses a string before any label is read, so
    # "2.5" never passes as 2.5 (nor "2,5", the customer's decimal comma).
    answer = copy.deepcopy(gold("order-decimal-01"))
    line(0, quantity=quantity)(answer)
    entry = score_one(tmp_path, capsys, "order-decimal-01", answer)
    assert entry["verdict"] == "FAIL"
    assert [reason.split(":")[0] for reason in entry["reasons"]] == ["invalid-result"]
    assert "/lines/0/quantity" in entry["reasons"][0]
