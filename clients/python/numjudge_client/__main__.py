"""``python -m numjudge_client``: the ``numjudge`` command line (numjudge_client.cli)."""

from numjudge_client.cli import console

console()
