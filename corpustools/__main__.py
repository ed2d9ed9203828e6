import os
import signal

# First thing, before any corpustools import: Ctrl-C during start-up exits 130, no traceback.
signal.signal(signal.SIGINT, lambda _signum, _frame: os._exit(130))

import sys  # noqa: E402

from corpustools.cli import main, utf8_mode  # noqa: E402

utf8_mode()  # arguments and file names decoded as UTF-8 whatever the locale (see corpustools.cli)
sys.exit(main())
