import os
import signal

# `python -m corpustools`: the package's import made Ctrl-C exit 130 already (corpustools/__init__.py);
# this covers a program that runs the module itself (runpy.run_module("corpustools", run_name="__main__")).
signal.signal(signal.SIGINT, lambda _signum, _frame: os._exit(130))

import sys  # noqa: E402

from corpustools.cli import main, utf8_mode  # noqa: E402

utf8_mode()  # arguments and file names decoded as UTF-8 whatever the locale (see corpustools.cli)
sys.exit(main())
