"""`corpustools render`: the prompt with a fixture's transcript, replaced literally."""

from corpustools.model.prompt import PLACEHOLDER
from corpustools.render import render_prompt
from tests.support.corpus import ADMIT_ID, REJECT_ID, session_text
from tests.support.score import run_cli

PROMPT = f"# Extract\n\nRead the transcript.\n\n---\n\n{PLACEHOLDER}\n"
TRICKY_TURNS = (("USER", r"Replace with $1 and \g<0> and \1 and {} and {0} and %s."),
                ("AGENT", "Done: `sed 's/a/\\\\1/'` left {name} as is."))


def write_prompt(tmp_path, text=PROMPT):
    path = tmp_path / "prompt.md"
    path.write_text(text)
    return path


def test_render_substitutes_the_body_without_frontmatter(make_corpus, tmp_path, capsys):
    code, out, _ = run_cli(capsys, "render", make_corpus(), ADMIT_ID, "--prompt", write_prompt(tmp_path))
    assert code == 0
    assert out.startswith("# Extract\n\nRead the transcript.\n\n---\n\n[USER]: Add a cron hook")
    assert "session_id" not in out and PLACEHOLDER not in out
    assert out.endswith("only enqueues their ids.\n")


def test_render_is_literal_for_regex_and_format_syntax(make_corpus, tmp_path, capsys):
    corpus = make_corpus({f"sessions/{ADMIT_ID}.md": session_text(turns=TRICKY_TURNS)})
    _, out, _ = run_cli(capsys, "render", corpus, ADMIT_ID, "--prompt", write_prompt(tmp_path))
    assert r"[USER]: Replace with $1 and \g<0> and \1 and {} and {0} and %s." in out
    assert "[AGENT]: Done: `sed 's/a/\\\\1/'` left {name} as is." in out


def test_render_prompt_unit():
    assert render_prompt(f"a\n{PLACEHOLDER}\nb", "T $1\n") == "a\nT $1\nb\n"
    assert render_prompt("no placeholder\n", "T", append=True) == "no placeholder\n\nT\n"


def test_prompt_without_placeholder_needs_append(make_corpus, tmp_path, capsys):
    prompt = write_prompt(tmp_path, "Just instructions, no placeholder.\n")
    code, out, err = run_cli(capsys, "render", make_corpus(), ADMIT_ID, "--prompt", prompt)
    assert (code, out) == (2, "") and f"{prompt}: no line" in err and "--append" in err
    code, out, _ = run_cli(capsys, "render", make_corpus(name="c2"), ADMIT_ID, "--prompt", prompt, "--append")
    assert code == 0 and out.startswith("Just instructions, no placeholder.\n\n[USER]: Add a cron hook")


def test_render_all_writes_one_file_per_fixture(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    out_dir = tmp_path / "rendered"
    code_err = run_cli(capsys, "render", corpus, "--all", "--out", out_dir, "--prompt", write_prompt(tmp_path))
    assert code_err == (0, "", f"wrote {out_dir} (2 rendered prompts)\n")
    assert sorted(p.name for p in out_dir.iterdir()) == [f"{ADMIT_ID}.md", f"{REJECT_ID}.md"]
    assert "[USER]: Please fix the typo" in (out_dir / f"{REJECT_ID}.md").read_text()


def test_render_never_writes_into_the_corpus(make_corpus, tmp_path, capsys):
    corpus = make_corpus()
    code, _, err = run_cli(capsys, "render", corpus, "--all", "--out", corpus / "sessions",
                           "--prompt", write_prompt(tmp_path))
    assert code == 2 and "never writes there" in err
    assert sorted(p.name for p in (corpus / "sessions").iterdir()) == [f"{ADMIT_ID}.md", f"{REJECT_ID}.md"]


def test_render_errors_are_one_line(make_corpus, tmp_path, capsys):
    corpus, prompt = make_corpus(), write_prompt(tmp_path)
    code, _, err = run_cli(capsys, "render", corpus, "no-such-01", "--prompt", prompt)
    assert code == 2 and err.count("\n") == 1 and err.endswith("no-such-01.md: no such fixture session\n")
    code, _, err = run_cli(capsys, "render", corpus, ADMIT_ID.replace("convention", "conventoin"), "--prompt", prompt)
    assert code == 2 and err.endswith(f": no such fixture session (did you mean {ADMIT_ID}?)\n")
    assert run_cli(capsys, "render", corpus, "--prompt", prompt)[0] == 2  # neither FIXTURE_ID nor --all
    assert run_cli(capsys, "render", corpus, ADMIT_ID, "--all", "--out", tmp_path / "x", "--prompt", prompt)[0] == 2
    broken = make_corpus({f"sessions/{ADMIT_ID}.md": "no frontmatter\n"}, name="broken")
    code, _, err = run_cli(capsys, "render", broken, ADMIT_ID, "--prompt", prompt)
    assert code == 2 and f"{ADMIT_ID}.md:1:1: frontmatter missing" in err


def test_render_of_a_folder_that_is_not_a_corpus_is_an_error(tmp_path, capsys):
    prompt = write_prompt(tmp_path)
    (tmp_path / "plain").mkdir()
    for folder, message in ((tmp_path / "nope", "no such corpus folder"),
                            (tmp_path / "plain", "not a corpus folder: no corpus.yaml")):
        code, out, err = run_cli(capsys, "render", folder, "--all", "--out", tmp_path / "out", "--prompt", prompt)
        assert (code, out) == (2, "") and message in err and err.count("\n") == 1
        code, out, err = run_cli(capsys, "render", folder, ADMIT_ID, "--prompt", prompt)
        assert (code, out) == (2, "") and message in err
    assert not (tmp_path / "out").exists()
