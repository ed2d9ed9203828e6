"""A credential-shaped token: a vendor key prefix, a private-key header, a JWT or an auth header.

What: scans every corpus file (corpus.yaml, sessions, sidecars, gold/*.json) line by line for
tokens shaped like credentials:
cloud keys (AWS `AKIA`/`ASIA` key ids, a 40-character AWS-style secret after a secret-key name,
Google `AIza`, Azure `AccountKey=`/`SharedAccessKey=` and SAS `sig=`), source hosting and
registries (GitHub `ghp_` `gho_` `ghu_` `ghs_` `ghr_` `github_pat_`, GitLab `glpat-`, npm `npm_`,
PyPI `pypi-`), chat (Slack `xoxb-` `xoxp-` `xapp-` and hooks URLs, Discord bot tokens and webhook
URLs), payment (Stripe `sk_live_` `sk_test_` `rk_` `pk_live_` `whsec_`, Square `sq0atp-` `EAAA`,
PayPal/Braintree `access_token$production$`), LLM vendors (OpenAI/DeepSeek `sk-`, `sk-proj-`,
Anthropic `sk-ant-`, Hugging Face `hf_`, Groq `gsk_`, Replicate `r8_`, xAI `xai-`, Perplexity
`pplx-`; Google AI keys are `AIza`; Cohere keys have no prefix, so only CT502 sees them), SendGrid,
Shopify, DigitalOcean, Mailgun and Twilio keys, `-----BEGIN ... PRIVATE KEY-----`, JSON Web Tokens
(`eyJ...eyJ...`), and `Authorization: Bearer|Basic|Token <credentials>` headers (a bare
`Bearer <token>` too, and a bare `Basic <base64>` that decodes to `user:password`).

Example and placeholder keys are flagged too (`AKIAIOSFODNN7EXAMPLE`, `sk-...`): no tool can tell
them from real ones, and GitHub push protection rejects them alike. The message shows only the
vendor prefix or the first few characters, never the token.

Why: fixture text is committed, shared and fed to a model. A real key in it is leaked; a fake
one still trains the reader (and the model's output) to carry keys around, and blocks pushes.
Secret rules can never be ignored, re-levelled or suppressed.

Example:

    [USER]: Deploy with OPENAI_API_KEY=sk-proj-3kfj... set in the environment.

    sessions/admit-tooling-01.md:7:36: CT501 [error] OpenAI project key (`sk-proj-…`); fingerprint 0511411630179c3611708a49be2f6d6e98db17ab9932f42355bea87add445b31

Write the variable's name instead (`OPENAI_API_KEY is set in the environment`).
"""

from corpustools.lint.secrets.findings import secret_problems

CODE = "CT501"
NAME = "secret-token"
SEVERITY = "error"
OPTIONS = ()
SUPPRESSIBLE = False


def check(ctx, options):
    yield from secret_problems(ctx, CODE)
