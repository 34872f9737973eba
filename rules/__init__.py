"""The shipped Datalog rules (``*.dl``), package data of ``bufferlog.rules``; found
through :func:`bufferlog.core.rules_dir`."""
