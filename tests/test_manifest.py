"""`corpustools run init` and reading run.yaml."""

from corpustools.manifest import parse_temperature, prompt_version, read_manifest
from corpustools.model.hashing import corpus_sha256, file_sha256
from tests.support.corpus import ADMIT_ID, VALID_FILES
from tests.support.score import run_cli

PROMPT = ("# Proposal Extraction Prompt\n\n<!--\n  Version: 6\n  Used by: hand\n-->\n\n"
          "[TRANSCRIPT PLACEHOLDER, substituted at runtime]\n")


def init(capsys, tmp_path, corpus, *extra):
    prompt = tmp_path / "proposal-extract.md"
    if not prompt.exists():
        prompt.write_text(PROMPT)
    return run_cli(capsys, "run", "init", tmp_path / "results", "--corpus", corpus, "--prompt", prompt, *extra)


def test_run_init_writes_a_valid_manifest(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    code, out, err = init(capsys, tmp_path, corpus, "--model", "model-x", "--temperature", "0.7", "--operator",
                          "sam", "--started-at", "2026-03-01T09:00:00Z")
    assert (code, out) == (0, "") and err.endswith(f"\nwrote {tmp_path / 'results' / 'run.yaml'}\n")
    read = read_manifest(str(tmp_path / "results"))
    assert read.warnings == ()
    manifest = read.manifest
    assert manifest["prompt"] == {"path": str(tmp_path / "proposal-extract.md"), "name": "proposal-extract",
                                  "version": 6, "sha256": file_sha256(str(tmp_path / "proposal-extract.md"))}
    assert (manifest["model"], manifest["temperature"], manifest["harness"], manifest["operator"]) == (
        "model-x", 0.7, "claude", "sam")
    assert manifest["started_at"] == "2026-03-01T09:00:00Z"
    assert manifest["corpus_sha256"] == corpus_sha256(str(corpus))


def test_run_init_refuses_to_overwrite_unless_forced(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    assert init(capsys, tmp_path, corpus, "--model", "a")[0] == 0
    code, _, err = init(capsys, tmp_path, corpus, "--model", "b")
    assert code == 2 and "already exists" in err and "--force" in err
    assert read_manifest(str(tmp_path / "results")).manifest["model"] == "a"
    assert init(capsys, tmp_path, corpus, "--model", "b", "--force")[0] == 0
    assert read_manifest(str(tmp_path / "results")).manifest["model"] == "b"


def test_run_init_defaults_and_errors(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    code, _, err = init(capsys, tmp_path, corpus)
    assert code == 0 and "prompt is Version 6; corpus.yaml's prompt_under_eval is version 5" in err
    read = read_manifest(str(tmp_path / "results"))
    assert read.manifest["model"] == "unrecorded" and "model and temperature unrecorded" in read.warnings[0]
    assert run_cli(capsys, "run", "init", tmp_path / "r2", "--corpus", tmp_path / "nope", "--prompt",
                   tmp_path / "proposal-extract.md")[0] == 2
    code, _, err = run_cli(capsys, "run", "init", tmp_path / "r3", "--corpus", corpus, "--prompt", tmp_path / "gone.md")
    assert code == 2 and "gone.md: no such file" in err
    code, _, err = run_cli(capsys, "run", "init", corpus / "expected", "--corpus", corpus, "--prompt",
                           tmp_path / "proposal-extract.md")
    assert code == 2 and "never writes there" in err
    assert sorted(p.name for p in (corpus / "expected").iterdir()) == sorted(
        k.split("/")[1] for k in VALID_FILES if k.startswith("expected/"))
    code, _, err = init(capsys, tmp_path, corpus, "--model", "", "--force")
    assert code == 2 and "/model" in err


def test_read_manifest_warns_on_missing_and_invalid(tmp_path):
    read = read_manifest(str(tmp_path))
    assert read.manifest is None and read.warnings == (f"{tmp_path}: no run.yaml: model and temperature unrecorded",)
    (tmp_path / "run.yaml").write_text("model: x\n")
    read = read_manifest(str(tmp_path))
    assert read.manifest is None
    assert "run.yaml:1:1: /: 'corpus_sha256' is a required property; manifest ignored" in read.warnings[0]
    (tmp_path / "run.yaml").write_text("model: [x\n")
    assert "YAML error" in read_manifest(str(tmp_path)).warnings[0]


def test_prompt_version_and_temperature_parsing():
    assert prompt_version(PROMPT) == 6
    assert prompt_version("Version: 2.1-rc\n") == "2.1-rc"
    assert prompt_version("no version here; the word Version: inline does not count\n") is None
    assert (parse_temperature("0.7"), parse_temperature("1"), parse_temperature("unknown"),
            parse_temperature("nan")) == (0.7, 1, "unknown", "nan")


def test_score_reads_the_manifest_written_by_run_init(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    init(capsys, tmp_path, corpus, "--model", "model-x", "--temperature", "0", "--started-at", "2026-03-01")
    (tmp_path / "results" / f"{ADMIT_ID}.json").write_text('{"practice": [], "map": []}')
    code, out, err = run_cli(capsys, "score", corpus, tmp_path / "results", "--format", "markdown")
    assert code == 0, err
    assert "| model | model-x |" in out and "| temperature | 0 |" in out and "DRIFT" not in out


def test_run_init_values_round_trip_through_run_yaml(make_corpus, tmp_path, capsys):
    # json.dumps leaves DEL, C1 controls and NEL unescaped; YAML refuses or folds them.
    corpus = make_corpus()
    model = "model\x7f\x85\x9f\u2028\ufffe-x"
    code, _, err = init(capsys, tmp_path, corpus, "--model", model, "--temperature", "0")
    assert code == 0, err
    read = read_manifest(str(tmp_path / "results"))
    assert read.warnings == () and read.manifest["model"] == model


def test_run_init_with_a_non_utf8_argument_is_one_line_and_writes_nothing(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    code, out, err = init(capsys, tmp_path, corpus, "--model", "model-\udcff")  # argv byte 0xff, surrogate-escaped
    assert code == 2 and "not valid Unicode" in err and err.count("\n") == 1 and "internal error" not in err
    assert not (tmp_path / "results" / "run.yaml").exists()
    assert init(capsys, tmp_path, corpus, "--model", "model-x")[0] == 0  # nothing left behind to refuse


def test_non_finite_numbers_make_a_manifest_invalid(make_corpus, tmp_path, capsys):
    # YAML's .nan and .inf are floats, but a JSON report that carried them would not be JSON.
    corpus = make_corpus()
    assert init(capsys, tmp_path, corpus, "--model", "m", "--temperature", "0")[0] == 0
    path = tmp_path / "results" / "run.yaml"
    path.write_text(path.read_text().replace("temperature: 0", "temperature: .nan"))
    read = read_manifest(str(tmp_path / "results"))
    assert read.manifest is None and "/temperature" in read.warnings[0] and "manifest ignored" in read.warnings[0]
    assert run_cli(capsys, "validate", "run-manifest", path)[0] == 1
    code, out, _ = run_cli(capsys, "score", corpus, tmp_path / "results", "--format", "json")
    assert code == 0 and "NaN" not in out


def test_run_init_needs_a_corpus_folder(tmp_path, capsys):
    (tmp_path / "plain").mkdir()
    code, _, err = init(capsys, tmp_path, tmp_path / "nope")
    assert code == 2 and "no such corpus folder" in err
    code, _, err = init(capsys, tmp_path, tmp_path / "plain")
    assert code == 2 and "not a corpus folder: no corpus.yaml" in err
    assert not (tmp_path / "results").exists()
