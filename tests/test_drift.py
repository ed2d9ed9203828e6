"""Two kinds of drift (docs/scoring.md, "Drift"): a run's inputs (the prompt and each session as
rendered) changed since it was made, so its outputs answer other questions (a banner; compare
refuses); or only its labels did (sidecars, corpus.yaml, the output contract), which is how labels
are revised (one line; scored under the current labels). And `run init --refresh`, which adds
both hashes to a run.yaml that records one corpus hash, refused when the sessions changed."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from corpustools.io.schemastore import validate
from corpustools.io.yamlload import parse_yaml
from corpustools.manifest import CORPUS_KEYS, build_manifest, manifest_yaml
from tests.support.corpus import ADMIT_ID, REJECT_ID
from tests.support.score import EMPTY, GOOD_ADMIT, run_cli, write_results

LINE = "labels revised since this run (corpus version {} → {}): scored under the current labels"
SESSION = f"sessions/{ADMIT_ID}.md"
SIDECAR = f"expected/{ADMIT_ID}.yaml"

pytestmark = pytest.mark.usefixtures("in_tmp")


def prompt_file(name: str = "prompt.md", version: int = 5) -> Path:
    path = Path(name)
    path.write_text(f"Version: {version}\n[TRANSCRIPT PLACEHOLDER, substituted at runtime]\n", encoding="utf-8")
    return path


def recorded_run(corpus, name: str = "run", *, old: bool = False, prompt: Path | None = None,
                 model: str = "m") -> Path:
    """A run folder of good results with a run.yaml as run init writes it now (or, `old`, as it
    wrote it before inputs and labels were recorded apart: one corpus hash)."""
    folder = write_results(Path(name), {ADMIT_ID: GOOD_ADMIT, REJECT_ID: EMPTY})
    manifest, _ = build_manifest(str(corpus), str(prompt or prompt_file()), model=model, temperature="0",
                                 harness=None, operator="o", started_at="2026-03-01T00:00:00Z")
    if old:
        manifest = {k: v for k, v in manifest.items() if k not in CORPUS_KEYS[1:]}
    (folder / "run.yaml").write_text(manifest_yaml(manifest), encoding="utf-8")
    return folder


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def score(capsys, corpus, *runs, fmt="json"):
    code, out, err = run_cli(capsys, "score", corpus, *runs, "--format", fmt)
    assert code == 0, err
    return json.loads(out) if fmt == "json" else out


# --- label drift: normal ------------------------------------------------------------------------------

def test_a_revised_label_is_scored_under_the_current_labels_and_said_in_one_line(make_corpus, capsys):
    corpus = make_corpus()
    run = recorded_run(corpus)
    assert score(capsys, corpus, run)["labels_revised"] is None
    edit(corpus / SIDECAR, "notes: A tiny fixture for tests.", "notes: A tiny fixture, revised.")
    edit(corpus / SIDECAR, "- queue worker", "- queue")
    edit(corpus / "corpus.yaml", "corpus_version: 1", "corpus_version: 2")
    report = score(capsys, corpus, run)
    assert (report["corpus_drift"], report["labels_revised"]) == (None, LINE.format(1, 2))
    markdown = score(capsys, corpus, run, fmt="markdown")
    assert markdown.startswith(LINE.format(1, 2) + "\n\n**2/2 fixtures passed**") and "DRIFT" not in markdown
    text = score(capsys, corpus, run, fmt="text")  # the terminal's: the line first, the verdict line last
    lines = text.rstrip("\n").split("\n")
    assert lines[0] == LINE.format(1, 2) and "DRIFT" not in text
    assert lines[-1].startswith("2/2 fixtures passed") and text.count("labels revised") == 1
    html = score(capsys, corpus, run, fmt="html")
    assert f'<p class="labels-revised">{LINE.format(1, 2)}</p>' in html and "DRIFT" not in html
    # compare proceeds to its headline, both sides scored under the current labels
    code, out, err = run_cli(capsys, "compare", corpus, "--base", run, "--candidate", run)
    lines = out.rstrip("\n").split("\n")
    assert (code, err) == (0, "") and lines[0] == LINE.format(1, 2) and out.count("labels revised") == 1
    assert lines[-1] == "no change beyond noise: 0 fixtures gained, 0 lost"
    code, out, err = run_cli(capsys, "compare", corpus, "--base", run, "--candidate", run, "--format", "markdown")
    assert out.startswith(LINE.format(1, 2) + "\n\n## no change beyond noise: 0 fixtures gained, 0 lost\n")
    code, out, err = run_cli(capsys, "compare", corpus, "--base", run, "--candidate", run, "--format", "html")
    assert f'<p class="labels-revised">{LINE.format(1, 2)}</p>' in out and 'id="verdict"' in out
    code, out, _ = run_cli(capsys, "compare", corpus, "--base", run, "--candidate", run, "--format", "json")
    data = json.loads(out)
    assert validate("compare-report", data) == [] and data["labels_revised"] == [LINE.format(1, 2)]
    assert data["corpus_drift_allowed"] == []


@pytest.mark.parametrize("change", [
    ("corpus.yaml", "corpus_version: 1", "corpus_version: 2"),
    ("corpus.yaml", "  version: 5", "  version: 6"),  # prompt_under_eval metadata
    ("corpus.yaml", "    tests: productive, but only typo fixes", "    tests: only typo fixes"),
])
def test_corpus_yaml_changes_are_label_side(make_corpus, capsys, change):
    corpus = make_corpus()
    run = recorded_run(corpus)
    edit(corpus / change[0], change[1], change[2])
    report = score(capsys, corpus, run)
    assert report["corpus_drift"] is None and report["labels_revised"].startswith("labels revised since this run")


def test_a_frontmatter_change_is_neither_drift(make_corpus, capsys):
    corpus = make_corpus()
    run = recorded_run(corpus)
    edit(corpus / SESSION, "captured_at: '2026-01-05T10:00:00Z'", "captured_at: '2026-01-06T10:00:00Z'")
    report = score(capsys, corpus, run)
    assert (report["corpus_drift"], report["labels_revised"]) == (None, None)


def test_several_runs_share_one_line_or_each_says_its_own(make_corpus, capsys):
    corpus = make_corpus()
    first, second = recorded_run(corpus, "r1"), recorded_run(corpus, "r2")
    edit(corpus / SIDECAR, "- queue worker", "- queue")
    assert score(capsys, corpus, first, second, fmt="text").split("\n")[0] == LINE.format(1, 1)
    third = recorded_run(corpus, "r3")  # made under the revised labels
    text = score(capsys, corpus, first, third, fmt="text")
    assert text.split("\n")[0] == f"r1: {LINE.format(1, 1)}" and "r3: labels" not in text


# --- input drift: refused ------------------------------------------------------------------------------

def test_a_changed_session_is_input_drift_naming_it(make_corpus, capsys):
    corpus = make_corpus()
    run = recorded_run(corpus)
    edit(corpus / SESSION, "[USER]: Add a cron hook", "[USER]: Please add a cron hook")
    report = score(capsys, corpus, run)
    assert report["corpus_drift"].startswith(f"run/run.yaml was produced against other inputs: {SESSION} changed "
                                             "since the run (inputs sha256 ")
    assert report["corpus_drift"].endswith("these outputs answer other questions")
    assert report["labels_revised"] is None
    code, out, err = run_cli(capsys, "compare", corpus, "--base", run, "--candidate", run)
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert f"{SESSION} changed since the run" in err and "--allow-corpus-drift" in err


def test_a_removed_session_is_input_drift(make_corpus, capsys):
    corpus = make_corpus()
    run = recorded_run(corpus)
    (corpus / "sessions" / f"{REJECT_ID}.md").unlink()
    assert f"sessions/{REJECT_ID}.md was removed since the run" in score(capsys, corpus, run)["corpus_drift"]


# --- fixtures added since a run: no drift, scored on the fixtures it was made against ---------------------

ADDED = ("admit-convention-02", "admit-convention-03")
ADDED_LINE = ("2 fixtures added since this run (sessions/admit-convention-02.md, sessions/admit-convention-03.md): "
              "scored on the 2 fixtures it was made against")


def add_fixtures(corpus: Path, ids=ADDED, category: str = "admit-convention") -> None:
    """New fixtures, session and sidecar, beside the ones a run was made against."""
    for fixture_id in ids:
        text = (corpus / SESSION).read_text(encoding="utf-8").replace("Add a cron hook", f"Add a cron hook ({fixture_id})")
        (corpus / "sessions" / f"{fixture_id}.md").write_text(text, encoding="utf-8")
        (corpus / "expected" / f"{fixture_id}.yaml").write_text(
            (corpus / SIDECAR).read_text(encoding="utf-8").replace(ADMIT_ID, fixture_id)
            .replace("admit-convention", category), encoding="utf-8")


def test_fixtures_added_since_a_run_are_no_drift_and_the_run_is_scored_on_the_fixtures_it_has(make_corpus, capsys):
    corpus = make_corpus()
    run = recorded_run(corpus)
    add_fixtures(corpus)
    report = score(capsys, corpus, run)
    assert report["corpus_drift"] is None and report["fixtures_added"] == list(ADDED)
    assert [f["id"] for f in report["fixtures"]] == [ADMIT_ID, REJECT_ID]  # never two missing results
    assert report["aggregate"]["fixtures_passed"] == report["aggregate"]["fixtures_total"] == 2
    assert validate("score-report", report) == []
    text = score(capsys, corpus, run, fmt="text").rstrip("\n").split("\n")
    assert text[0] == LINE.format(1, 1) and text[1] == ADDED_LINE  # two sidecars more: the labels moved too
    assert text[-1].startswith("2/2 fixtures passed")
    markdown = score(capsys, corpus, run, fmt="markdown")
    assert markdown.startswith(f"{LINE.format(1, 1)}\n\n{ADDED_LINE}\n\n**2/2 fixtures passed**")
    assert "DRIFT" not in markdown
    assert ADDED_LINE in score(capsys, corpus, run, fmt="html")
    # a run made after them is scored on all four; with the older one, both on the two they share
    newer = recorded_run(corpus, "newer")
    write_results(newer, {fixture_id: GOOD_ADMIT for fixture_id in ADDED})
    assert score(capsys, corpus, newer)["aggregate"]["fixtures_total"] == 4
    both = score(capsys, corpus, run, newer)
    assert [r["aggregate"]["fixtures_total"] for r in both["runs"]] == [2, 2]
    assert [r["fixtures_added"] for r in both["runs"]] == [list(ADDED), []]
    text = score(capsys, corpus, run, newer, fmt="text")
    assert f"run: {ADDED_LINE.replace('it was made', 'every run was made')}" in text
    # compare proceeds, fixture by fixture on the fixtures both were made against
    code, out, err = run_cli(capsys, "compare", corpus, "--base", run, "--candidate", newer, "--format", "json")
    assert (code, err) == (0, "")
    comparison = json.loads(out)
    assert [f["id"] for f in comparison["fixtures"]] == [ADMIT_ID, REJECT_ID]
    assert comparison["fixtures_added"] == [f"run: {ADDED_LINE.replace('it was made', 'every run was made')}"]
    assert comparison["corpus_drift_allowed"] == [] and validate("compare-report", comparison) == []


def test_a_category_every_fixture_of_which_was_added_is_not_among_the_old_runs_categories(make_corpus, capsys):
    corpus = make_corpus()
    run = recorded_run(corpus)
    edit(corpus / "corpus.yaml", "categories:\n", "categories:\n  - id: admit-later\n    count: 2\n    expect: practice\n"
                                                 "    tests: added since the run\n")
    add_fixtures(corpus, ("admit-later-01", "admit-later-02"), "admit-later")
    categories = [c["category"] for c in score(capsys, corpus, run)["categories"]]
    assert categories == ["admit-convention", "reject-noise"]


def test_a_result_for_a_fixture_added_since_the_run_is_not_scored_and_said(make_corpus, capsys):
    corpus = make_corpus()
    run = recorded_run(corpus)
    add_fixtures(corpus)
    write_results(run, {ADDED[0]: GOOD_ADMIT})  # saved into the old run, which records no input for it
    report = score(capsys, corpus, run)
    assert report["aggregate"]["fixtures_total"] == 2
    assert f"run/{ADDED[0]}.json: {ADDED[0]} was added to the corpus since this run (its run.yaml records no input " \
           "for it): not scored" in report["warnings"]


@pytest.mark.parametrize("also", ["changed", "removed"])
def test_an_added_session_with_a_changed_or_removed_one_is_still_input_drift(make_corpus, capsys, also):
    corpus = make_corpus()
    run = recorded_run(corpus)
    add_fixtures(corpus)
    if also == "changed":
        edit(corpus / SESSION, "[USER]: Add a cron hook", "[USER]: Please add a cron hook")
    else:
        (corpus / "sessions" / f"{REJECT_ID}.md").unlink()
    report = score(capsys, corpus, run)
    assert "was produced against other inputs" in report["corpus_drift"] and report["fixtures_added"] == []
    assert run_cli(capsys, "compare", corpus, "--base", run, "--candidate", run)[0] == 2


def test_a_run_yaml_whose_session_hashes_are_not_its_inputs_hash_is_input_drift(make_corpus, capsys):
    corpus = make_corpus()
    run = recorded_run(corpus)
    text = (run / "run.yaml").read_text(encoding="utf-8")
    kept = [line for line in text.split("\n") if not line.startswith(f"  {REJECT_ID}: ")]
    (run / "run.yaml").write_text("\n".join(kept), encoding="utf-8")  # a session's hash cut from the record
    assert score(capsys, corpus, run)["corpus_drift"] is None  # the inputs are still the ones it records
    add_fixtures(corpus)  # now the record cannot vouch that the sessions it lists are all the run answered
    report = score(capsys, corpus, run)
    assert "was produced against other inputs" in report["corpus_drift"] and report["fixtures_added"] == []


def test_refresh_of_a_run_with_sessions_added_since_has_nothing_to_do(make_corpus, capsys):
    corpus = make_corpus()
    run = recorded_run(corpus)
    add_fixtures(corpus)
    code, out, err = refresh(capsys, run, corpus)
    assert (code, out) == (0, "") and "no session it records changed (2 sessions added since the run)" in err


def test_a_run_yaml_with_one_corpus_hash_says_which_drift_cannot_be_told_apart(make_corpus, capsys):
    corpus = make_corpus()
    run = recorded_run(corpus, old=True)
    assert score(capsys, corpus, run)["corpus_drift"] is None  # the corpus it was made against
    edit(corpus / SIDECAR, "- queue worker", "- queue")
    drift = score(capsys, corpus, run)["corpus_drift"]
    assert "a changed session cannot be told apart from a revised label" in drift
    assert f"`corpustools run init run --corpus {corpus} --refresh`" in drift
    code, _, err = run_cli(capsys, "compare", corpus, "--base", run, "--candidate", run)
    assert code == 2 and "cannot be told apart" in err


# --- run init --refresh -------------------------------------------------------------------------------

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.invalid", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(*args) -> None:
    subprocess.run(["git", *args], check=True, capture_output=True, env={**os.environ, **GIT_ENV})


def committed(message: str) -> None:
    git("add", "-A")
    git("commit", "-q", "-m", message)


def refresh(capsys, run, corpus, *extra):
    return run_cli(capsys, "run", "init", run, "--corpus", corpus, "--refresh", *extra)


def committed_corpus_with_an_old_run(make_corpus) -> tuple[Path, Path]:
    """A git repository holding a corpus, committed, and a run made against it whose run.yaml
    records one corpus hash."""
    git("init", "-q")
    corpus = make_corpus()
    committed("corpus version 1")
    return corpus, recorded_run(corpus, old=True)


@needs_git
def test_refresh_finds_the_commit_a_run_was_made_against_and_keeps_what_run_yaml_says(make_corpus, capsys):
    corpus, run = committed_corpus_with_an_old_run(make_corpus)
    before = (run / "run.yaml").read_text(encoding="utf-8")
    edit(corpus / SIDECAR, "- queue worker", "- queue")
    edit(corpus / "corpus.yaml", "corpus_version: 1", "corpus_version: 2")
    committed("corpus version 2: a label revised")
    code, out, err = refresh(capsys, run, corpus)
    assert (code, out) == (0, "")
    assert "its sessions are those of commit " in err and "(corpus version 1)" in err
    assert f"wrote {run}/run.yaml (added the inputs and labels hashes)" in err
    after = (run / "run.yaml").read_text(encoding="utf-8")
    assert after.startswith(before)  # appended: nothing it said is lost
    manifest = parse_yaml(after, "run.yaml").data
    assert validate("run-manifest", manifest) == [] and manifest["corpus_version"] == 1
    assert set(manifest["session_sha256"]) == {ADMIT_ID, REJECT_ID}
    report = score(capsys, corpus, run)
    assert (report["corpus_drift"], report["labels_revised"]) == (None, LINE.format(1, 2))
    code, _, err = refresh(capsys, run, corpus)  # again: nothing to add
    assert code == 0 and "nothing to refresh" in err and (run / "run.yaml").read_text(encoding="utf-8") == after


@needs_git
def test_refresh_of_a_corpus_whose_schema_lies_above_it_writes_only_in_its_scratch_folder(capsys):
    """corpus.yaml may name its output schema above its own folder (`../shared/x.json`); rebuilding
    the corpus of a commit puts that file inside the scratch folder, never beside it."""
    import tempfile
    import uuid

    from tests.support.triage import GOLD, SPEC, TRIAGE_FILES, write_run, write_triage

    shared = f"shared-{uuid.uuid4().hex}"  # a name no other run can have left in the temporary folder
    git("init", "-q")
    corpus = write_triage("c", {"corpus.yaml": SPEC.replace("schema: output.schema.json",
                                                            f"schema: ../{shared}/output.schema.json"),
                                "output.schema.json": None})
    Path(shared).mkdir()
    Path(shared, "output.schema.json").write_text(TRIAGE_FILES["output.schema.json"], encoding="utf-8")
    committed("corpus version 1")
    run = write_run("run", GOLD)
    manifest, _ = build_manifest(str(corpus), str(prompt_file()), model="m", temperature="0", harness=None,
                                 operator="o", started_at="2026-03-01T00:00:00Z")
    old = {k: v for k, v in manifest.items() if k not in CORPUS_KEYS[1:]}
    (run / "run.yaml").write_text(manifest_yaml(old), encoding="utf-8")
    edit(corpus / "corpus.yaml", "corpus_version: 1", "corpus_version: 2")
    committed("corpus version 2")
    code, out, err = refresh(capsys, run, corpus)
    assert (code, out) == (0, ""), err
    assert "its sessions are those of commit " in err
    assert not os.path.exists(os.path.join(tempfile.gettempdir(), shared))


@needs_git
def test_refresh_is_refused_naming_the_first_changed_session(make_corpus, capsys):
    corpus, run = committed_corpus_with_an_old_run(make_corpus)
    before = (run / "run.yaml").read_bytes()
    edit(corpus / "sessions" / f"{REJECT_ID}.md", "Subscirbe", "Subscrbe")
    edit(corpus / SESSION, "[USER]: Add a cron hook", "[USER]: Please add a cron hook")
    committed("sessions edited")
    code, out, err = refresh(capsys, run, corpus)
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert err.startswith(f"corpustools run init: {run}/run.yaml: refused: {SESSION} changed since the run "
                          "(made against commit ")
    assert (run / "run.yaml").read_bytes() == before
    # a run.yaml that has the hashes already is checked against its own per-session hashes
    fresh = recorded_run(corpus, "fresh")
    edit(corpus / SESSION, "[USER]: Please add a cron hook", "[USER]: Now add a cron hook")
    code, _, err = refresh(capsys, fresh, corpus)
    assert code == 2 and f"refused: {SESSION} changed since the run" in err


OVERSIZED = 20 * 1024 * 1024  # bytes: over the 8 MiB every read is capped at (issue 31 item 8, at a 30th of its size)


@needs_git
@pytest.mark.parametrize("name", ["sessions/recording.wav", f"sessions/{ADMIT_ID}.md"])
def test_refresh_never_reads_a_blob_over_the_cap_whole(make_corpus, capsys, name):
    """A 20 MB file committed once under sessions/ and then deleted (a stray recording, or a
    session pasted whole by mistake): refresh reads only fixture-named blobs, each within the 8 MiB
    cap and streamed; on main it read every blob whole, twice over (40 MB and more)."""
    import tracemalloc

    corpus, run = committed_corpus_with_an_old_run(make_corpus)
    kept = (corpus / name).read_bytes() if (corpus / name).exists() else None
    (corpus / name).write_bytes(b"[USER]: x\n" * (OVERSIZED // 10))
    committed("a large file")
    if kept is None:
        (corpus / name).unlink()
    else:
        (corpus / name).write_bytes(kept)
    edit(corpus / "corpus.yaml", "corpus_version: 1", "corpus_version: 2")
    committed("the large file gone; corpus version 2")
    tracemalloc.start()
    try:
        code, out, err = refresh(capsys, run, corpus)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (code, out) == (0, ""), err
    assert "its sessions are those of commit " in err and "(corpus version 1)" in err
    assert peak < 4 * 1024 * 1024, f"peak {peak / 1e6:.1f} MB"


@needs_git
def test_each_blob_streams_in_order_skips_what_is_over_the_cap_and_stays_in_step(monkeypatch):
    from corpustools.io import githistory

    git("init", "-q")
    contents = {"a.md": b"alpha " * 100, "big.md": b"B" * 5_000, "c.md": b"gamma " * 300, "empty.md": b""}
    for name, data in contents.items():
        Path(name).write_bytes(data)
    committed("four files")
    files = githistory.tree(".", subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, check=True,
                                                text=True).stdout.strip(), list(contents)).files
    ids = [files[name] for name in contents]
    monkeypatch.setattr(githistory, "READ_CHUNK", 64)
    seen = []

    def first_chunk_only(blob, chunks):  # a reader that stops early: the next blob still starts right
        seen.append((blob, next(iter(chunks), b"")))

    over = githistory.each_blob(".", ids, first_chunk_only, max_bytes=4_000)
    assert over == {files["big.md"]: 5_000}
    assert seen == [(files[name], contents[name][:64]) for name in ("a.md", "c.md", "empty.md")]
    assert githistory.blobs(".", [files["a.md"], files["c.md"]]) == {files["a.md"]: contents["a.md"],
                                                                     files["c.md"]: contents["c.md"]}
    with pytest.raises(githistory.NoHistory, match="5000 bytes, over the 4000 byte limit; not read"):
        githistory.blobs(".", ids, max_bytes=4_000)
    digests = githistory.digests(".", ids, max_bytes=4_000)
    assert digests[files["big.md"]] is None
    assert digests[files["c.md"]] == hashlib.sha256(contents["c.md"]).hexdigest()


def test_refresh_without_history_asks_for_the_users_word(make_corpus, capsys):
    corpus = make_corpus()
    run = recorded_run(corpus, old=True)
    edit(corpus / SIDECAR, "- queue worker", "- queue")
    code, _, err = refresh(capsys, run, corpus)
    assert code == 2 and "cannot tell whether the sessions changed since the run" in err
    assert "pass --inputs-unchanged" in err
    code, _, err = refresh(capsys, run, corpus, "--inputs-unchanged")
    assert code == 0 and "on your word (--inputs-unchanged)" in err
    manifest = parse_yaml((run / "run.yaml").read_text(encoding="utf-8"), "run.yaml").data
    assert (manifest["corpus_version"], manifest["labels_sha256"]) == (None, None)
    report = score(capsys, corpus, run)
    assert (report["corpus_drift"], report["labels_revised"]) == (None, LINE.format("unknown", 1))


def test_refresh_of_a_run_of_the_same_corpus_needs_no_history(make_corpus, capsys):
    corpus = make_corpus()
    run = recorded_run(corpus, old=True)
    code, _, err = refresh(capsys, run, corpus)
    assert code == 0 and "the corpus is the one the run was made against" in err


def test_refresh_takes_only_the_corpus(make_corpus, capsys):
    corpus = make_corpus()
    run = recorded_run(corpus, old=True)
    code, _, err = refresh(capsys, run, corpus, "--model", "x", "--prompt", "prompt.md")
    assert code == 2 and "--prompt, --model cannot go with it" in err
    code, _, err = run_cli(capsys, "run", "init", "other", "--corpus", corpus)
    assert code == 2 and "--prompt FILE is required" in err
    code, _, err = refresh(capsys, "missing", corpus)
    assert code == 2 and "no run.yaml to refresh" in err


# --- runs that belong together ------------------------------------------------------------------------

def test_score_pools_only_repeats_unless_allowed(make_corpus, capsys):
    corpus = make_corpus()
    first = recorded_run(corpus, "v5a")
    second = recorded_run(corpus, "v5b")
    assert score(capsys, corpus, first, second)["mixed_runs"] == []
    other = recorded_run(corpus, "v6", prompt=prompt_file("p6.md", 6), model="n")
    code, out, err = run_cli(capsys, "score", corpus, first, other)
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert err.startswith("corpustools score: v5a and v6 are not repeats of one prompt: prompt sha256 ")
    assert "; model 'm' vs 'n'; score them apart, or pass --allow-mixed" in err
    code, out, _ = run_cli(capsys, "score", corpus, first, other, "--allow-mixed", "--format", "json")
    data = json.loads(out)
    assert code == 0 and validate("score-report", data) == [] and len(data["mixed_runs"]) == 1
    code, out, _ = run_cli(capsys, "score", corpus, first, other, "--allow-mixed", "--format", "markdown")
    assert out.startswith("> **MIXED RUNS (--allow-mixed):** v5a and v6 are not repeats of one prompt")
    code, out, _ = run_cli(capsys, "score", corpus, first, other, "--allow-mixed")  # the terminal's text
    assert "\nWARNING: MIXED RUNS (--allow-mixed): v5a and v6 are not repeats of one prompt" in out
    code, out, _ = run_cli(capsys, "score", corpus, first, other, "--allow-mixed", "--format", "html")
    assert "MIXED RUNS (--allow-mixed): v5a and v6 are not repeats of one prompt" in out
    unrecorded = write_results(Path("bare"), {ADMIT_ID: GOOD_ADMIT, REJECT_ID: EMPTY})  # no run.yaml: unknown
    assert run_cli(capsys, "score", corpus, first, unrecorded)[0] == 0


# --- small things -------------------------------------------------------------------------------------

def test_fail_under_phantoms_is_a_ceiling(make_corpus, capsys):
    corpus = make_corpus()
    phantom = {"practice": [{"type": "practice", "tags": ["x"], "title": "Fix the typo", "description": "d",
                             "body": "b", "kk_confidence": "high"}], "map": []}
    run = write_results(Path("run"), {ADMIT_ID: GOOD_ADMIT, REJECT_ID: phantom})
    assert run_cli(capsys, "score", corpus, run, "--fail-under", "phantoms=1")[::2] == (0, "")
    code, _, err = run_cli(capsys, "score", corpus, run, "--fail-under", "phantoms=0,pass_rate=0.4")
    assert (code, err) == (1, "corpustools score: phantoms 1 is over 0\n")


def test_a_fenced_json_result_is_invalid_with_a_hint(make_corpus, capsys):
    corpus = make_corpus()
    run = write_results(Path("run"), {ADMIT_ID: "```json\n" + json.dumps(GOOD_ADMIT) + "\n```\n",
                                      REJECT_ID: "\n~~~\n{\"practice\": [], \"map\": []}\n~~~"})
    report = score(capsys, corpus, run)
    reasons = {f["id"]: f["reasons"] for f in report["fixtures"]}
    assert reasons[ADMIT_ID] == [f"invalid-result:run/{ADMIT_ID}.json:1:1: the file holds a fenced code block: save "
                                 "only the JSON object"]
    assert reasons[REJECT_ID] == [f"invalid-result:run/{REJECT_ID}.json:2:1: the file holds a fenced code block: "
                                  "save only the JSON object"]
    broken = write_results(Path("broken"), {ADMIT_ID: "```json\n{not json\n```\n", REJECT_ID: EMPTY})
    reason = next(f for f in score(capsys, corpus, broken)["fixtures"] if f["id"] == ADMIT_ID)["reasons"][0]
    assert "fenced" not in reason and "invalid JSON" in reason


def test_a_result_named_like_no_fixture_gets_a_did_you_mean(make_corpus, capsys):
    corpus = make_corpus()
    (corpus / "sessions" / "admit-convention-02.md").write_text((corpus / SESSION).read_text())  # no sidecar
    run = write_results(Path("run"), {ADMIT_ID: GOOD_ADMIT, REJECT_ID: EMPTY, "admit-conventoin-01": EMPTY,
                                      "admit-convention-02": EMPTY, "zzz": EMPTY})
    warnings = score(capsys, corpus, run)["warnings"]
    assert ("run/admit-conventoin-01.json: names no fixture with a sidecar; not scored (did you mean "
            "admit-convention-01.json?)") in warnings
    assert "run/admit-convention-02.json: names no fixture with a sidecar; not scored" in warnings
    assert "run/zzz.json: names no fixture with a sidecar; not scored" in warnings


def test_a_did_you_mean_is_never_made_of_the_words_every_id_shares():
    # A newcomer's `escalate-silent-01` was offered `new-patient-01` for their shared `-01`; a
    # typo inside a word, a wrong number and a key missing a word are still near misses.
    from corpustools.io.suggest import closest

    ids = ["new-patient-01", "billing-dispute-01", "admit-convention-01"]
    assert closest("escalate-silent-01", ids) is None
    assert closest("admit-conventoin-01", ids) == "admit-convention-01"
    assert closest("admit-convention-02", ids) == "admit-convention-01"
    assert closest("new-patinet-01", ids) == "new-patient-01"
    assert closest("must_mach_all", ["must_match_all", "must_not_match", "notes"]) == "must_match_all"
    assert closest("pass-rate", ["pass_rate", "recall"]) == "pass_rate"


def test_run_init_records_both_hashes(make_corpus, capsys):
    corpus = make_corpus()
    code, _, err = run_cli(capsys, "run", "init", "run", "--corpus", corpus, "--prompt", prompt_file())
    assert code == 0, err
    manifest = parse_yaml(Path("run/run.yaml").read_text(encoding="utf-8"), "run.yaml").data
    assert validate("run-manifest", manifest) == []
    assert list(manifest)[6:] == [*CORPUS_KEYS, "notes"]
    assert manifest["corpus_version"] == 1 and sorted(manifest["session_sha256"]) == [ADMIT_ID, REJECT_ID]


def judged_run(corpus: Path, capsys) -> tuple[Path, Path]:
    """A recorded run and the worksheet a judge filled for it (the admit fixture's practice matched)."""
    from tests.support.calibrate import fill_all

    run = recorded_run(corpus)
    sheet = Path("sheet.yaml")
    assert run_cli(capsys, "adjudicate", corpus, run, "--out", sheet)[0] == 0
    sheet.write_text(fill_all(sheet.read_text(encoding="utf-8"), {(ADMIT_ID, "practice[0]", "class"):
                                                                   "point:expire-via-queue"}), encoding="utf-8")
    return run, sheet


def test_calibrate_warns_when_a_session_changed_since_the_run_not_when_labels_did(make_corpus, capsys):
    corpus = make_corpus()
    run, sheet = judged_run(corpus, capsys)
    edit(corpus / SIDECAR, "notes: A tiny fixture for tests.", "notes: A tiny fixture, revised.")
    code, out, err = run_cli(capsys, "calibrate", corpus, run, "--verdicts", sheet, "--format", "json")
    assert (code, err) == (0, "") and json.loads(out)["runs"][0]["warnings"] == []
    edit(corpus / SESSION, "[USER]: Add a cron hook", "[USER]: Please add a cron hook")
    code, out, _ = run_cli(capsys, "calibrate", corpus, run, "--verdicts", sheet, "--format", "json")
    [warning] = json.loads(out)["runs"][0]["warnings"]
    assert warning.startswith("CORPUS DRIFT: run/run.yaml was produced against other inputs: ") and code == 0


def test_calibrate_a_worksheet_of_a_run_made_before_fixtures_were_added(make_corpus, capsys):
    corpus = make_corpus()
    run, sheet = judged_run(corpus, capsys)
    add_fixtures(corpus)
    code, out, err = run_cli(capsys, "calibrate", corpus, run, "--verdicts", sheet, "--format", "json")
    assert (code, err) == (0, "")
    calibrated = json.loads(out)["runs"][0]
    assert calibrated["warnings"] == [ADDED_LINE.replace("scored on", "calibrated on")]
    assert [f["id"] for f in calibrated["fixtures"]] == [ADMIT_ID, REJECT_ID]
