"""The secrets test set: strings every CT5xx rule must flag, and Drupal vocabulary none may flag.

Fake secrets are assembled from pieces at import time (a prefix plus `fake(n)`), so this file holds
no literal credential for GitHub push protection or detect-secrets to trip on; the assembled values
have each vendor's real shape, which is what the rules must recognise.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

_ALPHABET = "a7Kq2Zp9Lm4Xw8Rt3Vb6Nc5Hy1Jd0Fg"


def fake(length: int, alphabet: str = _ALPHABET, offset: int = 0) -> str:
    """A deterministic, random-looking run of `length` characters from `alphabet`."""
    return "".join(alphabet[(offset + i * 7) % len(alphabet)] for i in range(length))


HEX = "0123456789abcdef"
B64 = "Zm9vYmFyQmF6cXV4MTIzNDU2Nzg5MGFiY2RlZg"


@dataclass(frozen=True)
class FlagCase:
    code: str  # the rule that must flag it
    syntax: str  # yaml | env | json | prose | code | shell | markdown
    text: str  # one line
    start: str  # the finding starts where this substring first occurs in `text`

    @property
    def col(self) -> int:
        return self.text.index(self.start) + 1

    @property
    def id(self) -> str:
        return f"{self.code}-{self.syntax}-{self.start[:12]}"


def _case(code, syntax, text, start) -> FlagCase:
    assert start in text, (text, start)
    return FlagCase(code, syntax, text, start)


AWS_ID = "AKIA" + "IOSFODNN7EXAMPLE"  # AWS's own documentation example: still flagged
AWS_STS_ID = "ASIA" + fake(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
AWS_SECRET = fake(20) + "/" + fake(19, offset=3)  # 40 characters
GOOGLE = "AI" + "za" + fake(35, offset=1)
AZURE_KEY = fake(86, offset=2) + "=="
GITHUB = "gh" + "p_" + fake(36)
GITHUB_OAUTH = "gh" + "o_" + fake(36, offset=5)
GITHUB_PAT = "github" + "_pat_" + fake(22) + "_" + fake(59, offset=4)
GITLAB = "gl" + "pat-" + fake(20, offset=6)
SLACK_BOT = "xo" + "xb-" + "2" * 11 + "-" + "3" * 12 + "-" + fake(24)
SLACK_USER = "xo" + "xp-" + "4" * 11 + "-" + "5" * 12 + "-" + fake(32, offset=1)
SLACK_APP = "xa" + "pp-1-" + "A0" + fake(9, "ABCDEFGHJKLMNPQR0123456789") + "-" + "6" * 13 + "-" + fake(64, HEX)
SLACK_HOOK = ("https://hooks.slack.com/" + "services/T" + fake(8, "ABCDEFGH012345") + "/B"
              + fake(10, "ABCDEFGH012345") + "/" + fake(24))
# A Discord bot token starts with the bot's numeric user id in base64.
DISCORD_BOT = (base64.b64encode(b"1087163540924" + b"78464").decode() + "." + fake(6, offset=2) + "."
               + fake(27, offset=9))
DISCORD_HOOK = "https://discord.com/api/" + "webhooks/" + "1" * 18 + "/" + fake(68, offset=4)
STRIPE_LIVE = "sk" + "_live_" + fake(24)
STRIPE_TEST = "sk" + "_test_" + fake(24, offset=1)
STRIPE_RESTRICTED = "rk" + "_live_" + fake(24, offset=2)
STRIPE_PUBLISHABLE = "pk" + "_live_" + fake(24, offset=3)
STRIPE_WEBHOOK = "wh" + "sec_" + fake(32)
SQUARE = "sq0" + "atp-" + fake(22, offset=5)
SQUARE_ACCESS = "EA" + "AA" + fake(60, offset=6)
BRAINTREE = "access_token" + "$production$" + fake(16, "abcdefghijklmnopqrstuvwxyz0123456789") + "$" + fake(32, HEX)
OPENAI_LEGACY = "sk" + "-" + fake(20) + "T3BlbkFJ" + fake(20, offset=2)
OPENAI_PROJECT = "sk" + "-proj-" + fake(48, offset=3)
ANTHROPIC = "sk" + "-ant-api03-" + fake(40, offset=4) + "-" + fake(20, offset=1) + "AA"
HUGGING_FACE = "hf" + "_" + fake(34, offset=7)
GROQ = "gs" + "k_" + fake(52, offset=8)
REPLICATE = "r8" + "_" + fake(37, offset=9)
XAI = "xa" + "i-" + fake(80, offset=2)
PERPLEXITY = "pp" + "lx-" + fake(48, offset=6)
AZURE_SAS = "sig=" + fake(43, offset=1) + "%3D"
NPM = "np" + "m_" + fake(36, offset=3)
PYPI = "py" + "pi-AgEIcHlwaS5vcmc" + fake(50, offset=5)
SENDGRID = "SG" + "." + fake(22) + "." + fake(43, offset=6)
SHOPIFY = "shp" + "at_" + fake(32, HEX)
MAILGUN = "ke" + "y-" + fake(32, HEX, offset=3)
TWILIO = "S" + "K" + fake(32, HEX, offset=5)
DIGITALOCEAN = "dop" + "_v1_" + fake(64, HEX, offset=7)
JWT = ("ey" + "JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" + "." + "ey" + "JzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkZlcm4ifQ"
       + "." + fake(43, offset=2))
BEARER = fake(40, offset=8)


def private_key(kind: str = "RSA", lines: int = 4, offset: int = 0, *, end: bool = True) -> str:
    """A private-key block (a fake: base64-shaped lines of 64 characters), one line per line;
    `end=False`: cut short before its END line."""
    edge = f"{kind} PRIVATE KEY" if kind else "PRIVATE KEY"
    body = [fake(64, _ALPHABET + "+/", offset=offset + 5 * i) for i in range(lines)] + [fake(20, offset=offset) + "=="]
    return "\n".join([f"-----BEGIN {edge}-----", *body, *([f"-----END {edge}-----"] if end else [])]) + "\n"


PRIVATE_KEY = private_key()
BASIC = base64.b64encode(b"deploy:" + fake(12).encode()).decode()

MUST_FLAG = (
    # CT501 secret-token: one per vendor shape, in several syntaxes
    _case("CT501", "prose", f"The docs example key {AWS_ID} is what I pasted.", AWS_ID),
    _case("CT501", "env", f"AWS_ACCESS_KEY_ID={AWS_STS_ID}", AWS_STS_ID),
    _case("CT501", "env", f"AWS_SECRET_ACCESS_KEY={AWS_SECRET}", "SECRET_ACCESS_KEY"),
    _case("CT501", "json", f'"SecretAccessKey": "{AWS_SECRET}",', "SecretAccessKey"),
    _case("CT501", "json", f'{{"apiKey": "{GOOGLE}", "authDomain": "x"}}', GOOGLE),
    _case("CT501", "code", f"genai.configure(api_key='{GOOGLE}')", GOOGLE),
    _case("CT501", "env", f"AZURE_STORAGE=DefaultEndpointsProtocol=https;AccountName=fern;AccountKey={AZURE_KEY}",
          "AccountKey"),
    _case("CT501", "prose", f"The blob URL ended in ?sv=2022-11-02&ss=b&{AZURE_SAS} and worked.", AZURE_SAS),
    _case("CT501", "prose", f"I pushed with {GITHUB} and it worked.", GITHUB),
    _case("CT501", "json", f'{{"oauth": "{GITHUB_OAUTH}"}}', GITHUB_OAUTH),
    _case("CT501", "shell", f"export GH_TOKEN={GITHUB_PAT}", GITHUB_PAT),
    _case("CT501", "yaml", f"gitlab_ci_token: {GITLAB}", GITLAB),
    _case("CT501", "env", f"SLACK_BOT_TOKEN={SLACK_BOT}", SLACK_BOT),
    _case("CT501", "prose", f"The user token ({SLACK_USER}) came from the app page.", SLACK_USER),
    _case("CT501", "yaml", f"  app_level: {SLACK_APP}", SLACK_APP),
    _case("CT501", "code", f"$webhook = '{SLACK_HOOK}';", SLACK_HOOK),
    _case("CT501", "code", f'client.run("{DISCORD_BOT}")', DISCORD_BOT),
    _case("CT501", "markdown", f"Post to <{DISCORD_HOOK}> on deploy.", DISCORD_HOOK),
    _case("CT501", "code", f"$stripe = new \\Stripe\\StripeClient('{STRIPE_LIVE}');", STRIPE_LIVE),
    _case("CT501", "env", f"STRIPE_SECRET={STRIPE_TEST}", STRIPE_TEST),
    _case("CT501", "yaml", f"restricted: {STRIPE_RESTRICTED}", STRIPE_RESTRICTED),
    _case("CT501", "code", f"const stripe = Stripe('{STRIPE_PUBLISHABLE}');", STRIPE_PUBLISHABLE),
    _case("CT501", "prose", f"The webhook signing value is {STRIPE_WEBHOOK} for now.", STRIPE_WEBHOOK),
    _case("CT501", "json", f'"square": {{"sandbox": "{SQUARE}"}}', SQUARE),
    _case("CT501", "env", f"SQUARE_ACCESS={SQUARE_ACCESS}", SQUARE_ACCESS),
    _case("CT501", "code", f"$gateway = new Braintree\\Gateway(['accessToken' => '{BRAINTREE}']);", BRAINTREE),
    _case("CT501", "code", f'openai.api_key = "{OPENAI_LEGACY}"', OPENAI_LEGACY),
    _case("CT501", "env", f"OPENAI_API_KEY={OPENAI_PROJECT}", OPENAI_PROJECT),
    _case("CT501", "yaml", f"anthropic: {ANTHROPIC}", ANTHROPIC),
    _case("CT501", "prose", "Set the key (sk-...) in the environment before running.", "sk-..."),
    _case("CT501", "shell", f"huggingface-cli login --token {HUGGING_FACE}", HUGGING_FACE),
    _case("CT501", "json", f'{{"groq": "{GROQ}"}}', GROQ),
    _case("CT501", "env", f"REPLICATE_API_TOKEN={REPLICATE}", REPLICATE),
    _case("CT501", "prose", f"Grok answered once {XAI} was exported.", XAI),
    _case("CT501", "yaml", f"perplexity: {PERPLEXITY}", PERPLEXITY),
    _case("CT501", "code", f"//registry.npmjs.org/:_authToken={NPM}", NPM),
    _case("CT501", "code", f"password = {PYPI}", PYPI),
    _case("CT501", "json", '{"key": "' + PRIVATE_KEY.replace("\n", "\\n") + '"}', "-----BEGIN"),
    _case("CT501", "env", "    SSH_KEY=" + private_key("OPENSSH", 2).replace("\n", " "), "-----BEGIN"),
    _case("CT501", "json", f'{{"id_token": "{JWT}"}}', JWT),
    _case("CT501", "shell", f"curl -H 'Authorization: Bearer {BEARER}' https://api.fern.test/v1", "Authorization"),
    _case("CT501", "code", f"headers = {{'Authorization': 'Basic {BASIC}'}}", "Authorization"),
    _case("CT501", "prose", f"The header is just Bearer {BEARER} copied from the console.", "Bearer"),
    _case("CT501", "prose", f"The proxy wants Basic {BASIC} on each call.", "Basic"),
    _case("CT501", "yaml", f"sendgrid: {SENDGRID}", SENDGRID),
    _case("CT501", "env", f"SHOPIFY_ADMIN={SHOPIFY}", SHOPIFY),
    _case("CT501", "prose", f"Mailgun wants {MAILGUN} on every request.", MAILGUN),
    _case("CT501", "json", f'"twilio": "{TWILIO}"', TWILIO),
    _case("CT501", "shell", f"doctl auth init -t {DIGITALOCEAN}", DIGITALOCEAN),
    # CT502 secret-assignment
    _case("CT502", "env", "DB_PASSWORD=Tr0ub4dor3", "DB_PASSWORD"),
    _case("CT502", "yaml", "api_key: 3f9a1c77e2b8", "api_key"),
    _case("CT502", "code", 'token = "c0ffee-1234-beef"', "token"),
    _case("CT502", "json", '{"client_secret": "gH7kL9pQ2w"}', "client_secret"),
    _case("CT502", "code", "$settings['hash_salt'] = 'Xk9vQ2mL7pR4wZ';", "hash_salt"),
    _case("CT502", "code", "  'password' => 'drupal8',", "password"),
    _case("CT502", "shell", "mysql -u fern --password=Hunter22 fern_db", "password"),
    _case("CT502", "prose", "The export URL was /api/export?api_key=abc123def&format=csv here.", "api_key"),
    _case("CT502", "code", 'secret = "toml-value-77"', "secret"),
    _case("CT502", "code", 'const config = { apiKey: "k3y-value-9" };', "apiKey"),
    _case("CT502", "code", "$databases['default']['default']['password'] = 'fern-db-pass';", "password"),
    _case("CT502", "prose", "Password: hunter2", "Password"),
    # a value quoted or marked up in prose, as a transcript writes one (review of issue 36)
    _case("CT502", "prose", "[USER]: the password is `Tq7vLm2pXz9wKr4s` for now", "password"),
    _case("CT502", "prose", "[USER]: the password is 'Tq7vLm2pXz9wKr4s' for now", "password"),
    _case("CT502", "prose", '[USER]: the password is "Tq7vLm2pXz9wKr4s" for now', "password"),
    _case("CT502", "prose", "[USER]: the token is **Tq7vLm2pXz9wKr4s** now", "token"),
    _case("CT502", "yaml", "SMTP_PASS: mailpass99", "SMTP_PASS"),
    _case("CT502", "markdown", "Set `password`: `correct-horse` in the form.", "password"),
    _case("CT502", "yaml", "  auth_token: 'abc'", "auth_token"),
    _case("CT502", "code", "this.accessToken = 'tok-5566';", "this.accessToken"),
    _case("CT502", "env", "export PRIVATE_KEY=changeme", "PRIVATE_KEY"),
    # quoted literals starting with or holding reference-like characters, keys without a word break
    _case("CT502", "code", 'password = "!Xk9vQ2mL7pR4"', "password"),
    _case("CT502", "code", "password = '#Xk9vQ2mL7pR4'", "password"),
    _case("CT502", "code", 'password = "@Xk9vQ2mL7pR4"', "password"),
    _case("CT502", "code", 'password = "&Xk9vQ2mL7pR4"', "password"),
    _case("CT502", "code", 'password = "*Xk9vQ2mL7pR4"', "password"),
    _case("CT502", "code", 'password = "<Xk9vQ2mL7pR4"', "password"),
    _case("CT502", "code", 'password = "?Xk9vQ2mL7pR4"', "password"),
    _case("CT502", "code", 'password = "\\Xk9vQ2mL7pR4"', "password"),
    _case("CT502", "code", 'secret = "S3cr3t(2024)!"', "secret"),
    _case("CT502", "code", "token = 'ab::cd->ef12'", "token"),
    _case("CT502", "env", "PGPASSWORD=Tr0ub4dor3", "PGPASSWORD"),
    _case("CT502", "env", "DBPASSWORD=Tr0ub4dor3", "DBPASSWORD"),
    _case("CT502", "env", "JWTSECRET=Xk9vQ2mL7pR4", "JWTSECRET"),
    _case("CT502", "env", "MYSQL_ROOT_PASSWORD=Tr0ub4dor3", "MYSQL_ROOT_PASSWORD"),
    # CT503 credential-url
    _case("CT503", "code", "$db_url = 'mysql://drupal:drupal@db/drupal';", "mysql://"),
    _case("CT503", "env", "DATABASE_URL=postgres://fern:Tr0ub4dor@db.fern.internal:5432/fern", "postgres://"),
    _case("CT503", "yaml", "cache: redis://:s3cretpw@cache:6379/0", "redis://"),
    _case("CT503", "prose", "I cloned https://deploy:p4ssw0rd@git.fern.test/site.git again.", "https://"),
    # CT504 hostname
    _case("CT504", "prose", "The feed lives at https://catalog.fernlibrary.org/api/holdings now.", "https://"),
    _case("CT504", "prose", "There is an issue about it on drupal.org already.", "drupal.org"),
    _case("CT504", "prose", "The German site is www.fern.de for now.", "www.fern.de"),
    _case("CT504", "shell", "curl -s http://devbox.lan:8080/health", "http://"),
    _case("CT504", "yaml", "host: db.internal", "db.internal"),
    _case("CT504", "prose", "Backups go to nas.local every night.", "nas.local"),
    _case("CT504", "yaml", "smb_share: fileserver.corp", "fileserver.corp"),
    _case("CT504", "prose", "Ping router.home.arpa first.", "router.home.arpa"),
    _case("CT504", "prose", "Open fern.ddev.site in the browser.", "fern.ddev.site"),
    _case("CT504", "prose", "The mirror runs as catalog.intranet today.", "catalog.intranet"),
    _case("CT504", "markdown", "Check [the node](http://fern.local/node/1) again.", "http://"),
    _case("CT504", "prose", "Mail relays through mail.fern.co.uk only.", "mail.fern.co.uk"),
    _case("CT504", "code", "fetch('https://api.stripe.com/v1/charges')", "https://"),
    _case("CT504", "json", '{"endpoint": "ssh://deploy@web01/srv/site"}', "ssh://"),
    # CT505 ip-address
    _case("CT505", "yaml", "host: 10.0.0.12", "10.0.0.12"),
    _case("CT505", "prose", "The office range is 192.168.1.20/24 behind the NAT.", "192.168.1.20"),
    _case("CT505", "shell", "curl http://10.1.2.3:8080/status", "10.1.2.3"),
    _case("CT505", "prose", "The public resolver is 8.8.4.4 here.", "8.8.4.4"),
    _case("CT505", "prose", "It answers on fe80::1 only.", "fe80::1"),
    _case("CT505", "json", '{"ipv6": "2a00:1450:4009::8a2e:370:7334"}', "2a00:1450:4009::8a2e:370:7334"),
    _case("CT505", "prose", "Bind to [fd00::1]:8080 in dev.", "fd00::1"),
    # CT506 email
    _case("CT506", "prose", "Send the export to maria.lopez@fernlibrary.org when done.", "maria.lopez@"),
    _case("CT506", "yaml", "alerts: ops+alerts@fern.internal", "ops+alerts@"),
    _case("CT506", "shell", "git clone git@github.com:fern/site.git", "git@github.com"),
    _case("CT506", "markdown", "Write to [the desk](mailto:desk@fern.internal).", "desk@"),
    # CT507 phone
    _case("CT507", "prose", "Call the branch on +44 20 7946 0958 after nine.", "+44"),
    _case("CT507", "prose", "The vendor hotline is +1 (555) 123-4567.", "+1"),
    _case("CT507", "yaml", "desk_phone: (555) 123-4567", "(555)"),
    _case("CT507", "prose", "Text 555-123-4567 if it breaks.", "555-123"),
    _case("CT507", "json", '{"fax": "555.123.4567"}', "555.123"),
    _case("CT507", "prose", "The London desk is 020 7946 0958.", "020"),
    _case("CT507", "code", "$phone = '+4930123456';", "+49"),
    _case("CT507", "prose", "Le standard: 01 23 45 67 89.", "01 23"),
    _case("CT507", "prose", "Toll free 1-555-123-4567 for patrons.", "1-555"),
)

MUST_NOT_FLAG = (
    # a quoted name after a secret word, with no `is`/`=`/`:` before it: a name, not a value
    "We count usage with tiktoken `cl100k_base` for every run.",
    "Read the password `policy2024` document before the review.",
    'Change the token "expiry3600" setting in the admin form.',
    # a private-key header named, not a key
    "-----BEGIN RSA PRIVATE KEY-----",
    "A PEM file starts with -----BEGIN OPENSSH PRIVATE KEY----- and ends with its END line.",
    # service ids and service definitions
    "$this->entityTypeManager = \\Drupal::service('entity_type.manager');",
    "  arguments: ['@entity_type.manager', '@current_user', '@cache_tags.invalidator']",
    "Inject plugin.manager.mail and config.factory instead of calling \\Drupal.",
    "logger.channel.fern_events and logger.factory are both available.",
    "The cache.default and cache.render bins are cleared on deploy.",
    "Use path_alias.manager, date.formatter and router.admin_context in the service.",
    "tempstore.private, keyvalue.expirable and lock.persistent are all core services.",
    "access_check.permission and paramconverter.entity run before the controller.",
    "  csrf_token:",
    "    class: Drupal\\Core\\Access\\CsrfTokenGenerator",
    "$token = \\Drupal::csrfToken()->get('fern/rsvp');",
    "  token_service:",
    # hook names and PHP
    "Implement hook_form_alter() in fern_events.module, not a form subclass.",
    "function fern_events_form_node_event_form_alter(&$form, FormStateInterface $form_state) {",
    "hook_entity_presave, hook_cron and hook_update_N all run at different times.",
    "fern_branch_update_10001() adds the pickup_desk field.",
    "The module implements hook_token_info() and hook_tokens() for the branch label.",
    "namespace Drupal\\fern_events\\Plugin\\Block;",
    "use Drupal\\Core\\Session\\AccountProxyInterface;",
    "@see \\Drupal\\Core\\Entity\\EntityTypeManagerInterface::getStorage()",
    "\\Drupal::entityTypeManager()->getStorage('node')->loadByProperties(['type' => 'event']);",
    "Drupal.behaviors.fernEvents = { attach(context, settings) {} };",
    "const base = drupalSettings.path.baseUrl;",
    "<p>{{ node.id }} by {{ user.email }} in {{ node.bundle }}</p>",
    # file names
    "Copy example.settings.local.php to settings.local.php first.",
    "mymodule.services.yml, node.html.twig and fern_events.info.yml were edited.",
    "composer.json and README.md changed in the same commit.",
    "The Drupal 7 version had mymodule.info and mymodule.test files.",
    "olivero.theme, fern_branch.install and fern_events.module hold the hooks.",
    "fern_events.routing.yml, fern_events.links.menu.yml and fern_events.libraries.yml.",
    "page--front.html.twig overrides field--node--body.html.twig here.",
    "Enable development.services.yml and copy phpunit.xml.dist to the web root.",
    "Read .env.example, then run main.py and deploy.sh as described in notes.md.",
    "I opened web/modules/custom/fern_branch/src/Entity/Branch.php first.",
    "Drafted config/sync/fern_branch.branch.mob.yml with id mob.",
    "See @docs/notes.md and @README.md for the plan.",
    # config names and config keys
    "drush config:get system.site name and system.theme default",
    "core.extension lists password_policy and tokenizer as enabled.",
    "system.performance, system.date and system.mail are simple config.",
    "language.entity.fr and language.entity.de were imported.",
    "image.style.large, node.type.page and views.view.frontpage changed.",
    "user.role.editor and field.storage.node.field_tags are in the diff.",
    "pathauto.pattern.blog and search.page.node_search need updating.",
    "primary_key: id",
    "keyboard: us",
    "passwordless: magic-link",
    "tokenizer: whitespace-v2",
    "keyboard_layout: dvorak",
    "monkey: george",
    "turkey: roasted",
    "basalt: grey-stone",
    "password = '<your-password>'",
    "token: '${API_TOKEN}'",
    "secret: \"%env(APP_SECRET)%\"",
    "The tokenizer splits on whitespace; token_service is deprecated.",
    "'#type' => 'password',",
    "'#type' => 'password_confirm',",
    "$form['pass'] = [",
    "    _csrf_token: 'TRUE'",
    "pattern: '[node:title]'",
    "token: '[site:name]'",
    "max_tokens: 4096",
    "api_key: ''",
    "api_key:",
    "password: ${DB_PASSWORD}",
    "'password' => getenv('DB_PASSWORD'),",
    "$config['fern.settings']['api_key'] = getenv('FERN_API_KEY');",
    "$settings['hash_salt'] = file_get_contents('../salt.txt');",
    "private_key: '../keys/private.key'",
    "def login(username: str, password: str | None = None):",
    "  token: string;",
    "connect(user=user, password=password)",
    "secret_key: ~",
    "X-CSRF-Token: {{ csrf }}",
    "'#default_value' => $config->get('api_key'),",
    "$settings['trusted_host_patterns'] = ['^fern\\.test$'];",
    "$settings['file_private_path'] = '../private';",
    "Bearer token authentication is configured in simple_oauth.",
    "Create a Basic page and attach it to the menu.",
    # UUIDs, hashes, dates and times
    "session_id: 6ee92a58-d7a7-40c2-a3e2-8c1ae62a2018",
    "uuid: 3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d",
    "sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "Commit a3f9c21 reverted 8c1ae62a.",
    "captured_at: '2026-02-17T09:41:26.000Z'",
    "Tuesday and Thursday, 09:30 to 15:00, from 2026-02-17 or 01-02-2026.",
    "The job ran from 10:30:00 until 12:45:30.",
    "MAC 00:1a:2b:3c:4d:5e is the printer; the C++ operator :: is unrelated.",
    # versions
    "Drupal 10.3 on PHP 8.1.2 with jQuery 3.7.1.",
    "composer require drupal/pathauto:^1.12 drupal/core-recommended:^10.3",
    "The contrib module is 8.x-1.0 and the release is 2.0.0-beta3.",
    # ticket ids, ports, line numbers and counts
    "See FERN-312 and DRP-482 before merging FERN-1234.",
    "The error is at Branch.php:123 on line 1042.",
    "MySQL listens on port 3306 and the app on :8080.",
    "ddev phpunit finishes with 9 tests, 31 assertions, 212 items.",
    "ddev drush config:import -y imported 11 objects.",
    "The ticket count went from 1000 to 2500 in 2025.",
    "+1 from me on the approach.",
    # names and addresses reserved for documentation and testing (RFC 2606, 6761, 5737, 3849)
    "curl -s localhost:8080/health",
    "Open http://localhost:8000/ and log in.",
    "The dev site is fern.localhost and the API api.fern.localhost.",
    "The mirror runs as catalog.example today.",
    "Check [the node](http://fern.test/node/1) again.",
    "It redirects to https://sso.invalid/login on purpose.",
    "See https://example.com/docs and www.example.org for the format.",
    "Write to [the desk](mailto:desk@fern.example) or user@example.com.",
    "root@localhost gets the cron mail.",
    "curl http://127.0.0.1:8080/status",
    "Bind to [::1]:8080 in dev.",
    "The docs use 192.0.2.10, 198.51.100.7 and 203.0.113.254.",
    '{"ipv6": "2001:db8::8a2e:370:7334"}',
)
