"""A credential-shaped token: a vendor key prefix, a private key, a JWT or an auth header.

What: scans every file and every file and folder name under the corpus folder, whatever its name
or extension (runs/, calibration/, notes, the README, hidden files; `.git` excepted), the way the
parsers and a reader see it: text decoded by its byte-order mark (UTF-8, UTF-16, UTF-32) or else
as UTF-8; each line folded (invisible characters of the categories Cc, Cf, Mn, Me, Zl, Zp and Zs
other than the space, default-ignorables and blank symbols dropped; NFKC; look-alikes mapped to
ASCII) and as written; with its escapes decoded (JSON and YAML `\\x41`, `\\u0067`, HTML entities,
percent-encoding); its base64 blobs of 20 or more characters decoded when they are text; and a
double-quoted YAML string that spans lines as the parser joins it. Text is also read as a reader
puts it back together: Markdown emphasis, code-span backticks, strikethrough, Markdown escapes,
link syntax and HTML tags and comments inside a token removed (`AKIA**Z7Q2**M4…`, `_ghp_…_`,
`AKIA<!-- -->Z7Q2…`, `sk_live_<span>…</span>`), string literals joined (`"AKIA" + "Z7Q2…"`), and a
token wrapped over lines joined (as text wraps, after a `\\` continuation, a hyphen, the next
line's indentation or its `> `, `# ` or `// ` marker); these views are made for the lines that hold
a vendor prefix or secret word (or end with the start of a prefix: two capitals or three
characters, `AK` then `IA…` on the next line), and a finding in joined lines must start on the
first and cross the break.
A token glued to a word is still found where a reader splits the word, at a case or digit
boundary (`keyAKIA…`, `2024AKIA…`, `STRIPEsk_live_…`), and a prefix no word holds (`ghp_`, `xoxb-`,
`glpat-`) after any letter (`myghp_…`). A finding is reported once, at the original line and
column where it starts (a name: at the file). Not seen: a token read out in groups
(`AKIA IOSF ODNN …`), one written backwards, one whose vendor prefix itself is split by an HTML
tag or emphasis (`gh<b>p_</b>…`) or cut after its first small letters by a line break. It looks for tokens shaped like credentials:
cloud keys (AWS `AKIA`/`ASIA` key ids: 16 capitals and digits after the prefix, or, as a sidecar
term or an id holds one, in small letters of AWS's alphabet, a-z and 2-7, with a digit; a
40-character AWS-style secret after a secret-key name,
Google `AIza`, Azure `AccountKey=`/`SharedAccessKey=` and SAS `sig=`), source hosting and
registries (GitHub `ghp_` `gho_` `ghu_` `ghs_` `ghr_` `github_pat_`, GitLab `glpat-`, npm `npm_`,
PyPI `pypi-`), chat (Slack `xoxb-` `xoxp-` `xapp-` and hooks URLs, Discord bot tokens and webhook
URLs), payment (Stripe `sk_live_` `sk_test_` `rk_` `pk_live_` `whsec_`, Square `sq0atp-` `EAAA`,
PayPal/Braintree `access_token$production$`), LLM vendors (OpenAI/DeepSeek `sk-`, `sk-proj-`,
Anthropic `sk-ant-`, Hugging Face `hf_`, Groq `gsk_`, Replicate `r8_`, xAI `xai-`, Perplexity
`pplx-`; Google AI keys are `AIza`; Cohere keys have no prefix, so only CT502 sees them), SendGrid,
Shopify, DigitalOcean, Mailgun and Twilio keys, private keys (a `-----BEGIN ... PRIVATE KEY-----`
block through its `-----END` line, or through its last line of base64 when the END line is missing;
the whole block is the match, so each key has a fingerprint of its own, and a header with no base64
after it, which names the format, is no finding), JSON Web Tokens
(`eyJ...eyJ...`), and `Authorization: Bearer|Basic|Token <credentials>` headers (a bare
`Bearer <token>` too, unless the word after it is an identifier of words such as
`ApiGatewayV2Authorizer`, and a bare `Basic <base64>` that decodes to `user:password`).

Example and placeholder keys are flagged too (`AKIAIOSFODNN7EXAMPLE`, `sk-...`): no tool can tell
them from real ones, and GitHub push protection rejects them alike. Shapes that ordinary text also
has are told apart: an `sk-` token needs a digit or mixed case and must not be an identifier of
words (`sk-refactor-payment-module-cleanup` is a branch name), an AWS-shaped id with a 0, 1, 8
or 9 (outside AWS's alphabet) after a word naming a product code is one (`SKU ASIAPAC0042XLBLK18R9`;
after any other word it is a fake key, flagged), `key-` and 32 hex digits is a Mailgun key only on a line that names Mailgun
(else it is a hash: `key-<md5>`), and a Discord token's first part must decode to a numeric user
id (a dotted Java class name has the shape but not the id). The message shows only the vendor
prefix or the first few characters, never the token, then the fingerprint that
`lint: secrets: allow:` takes to allow exactly this text in this file (the SHA-256 of the whole
match: for a private key, its block's lines joined by single spaces).

Why: fixture text is committed, shared and fed to a model. A real key in it is leaked; a fake
one still trains the reader (and the model's output) to carry keys around, and blocks pushes.
Secret rules can never be ignored, re-levelled or suppressed.

Example:

    [USER]: Deploy with OPENAI_API_KEY=sk-proj-3kfj... set in the environment.

    sessions/admit-tooling-01.md:7:36: CT501 [error] OpenAI project key (`sk-proj-…`); fingerprint 0511411630179c3611708a49be2f6d6e98db17ab9932f42355bea87add445b31

Write the variable's name instead (`OPENAI_API_KEY is set in the environment`).
"""

from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.options import NoOptions
from corpustools.lint.secrets.findings import secret_problems

CODE = "CT501"
NAME = "secret-token"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = False
SCOPE = "corpus"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    yield from secret_problems(ctx, CODE)
