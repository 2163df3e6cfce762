"""Play over a network: ``railgames host`` (SSH) and the tables it keeps.

* ``tables``   the tables: records, seats, bots; the rules layer judges every action here.
* ``protocol`` small JSON messages, one per line, over a local socket.
* ``tableserver`` the local socket the per-connection app processes talk to.
* ``remote``   an app process's link to the host's tables (the seat itself, the game
               screen's table, is ``railgames.tables.remote.RemoteSeat``).
* ``sshhost``  the SSH server: one app process per connection, on a PTY.
* ``players``  who owns which name (key or passphrase), and the failed-login limit.
* ``admin``    ``railgames host admin``: the operator's commands on names and keys.
* ``webserve`` ``railgames serve``: the same in a web browser.

Nothing here is imported by the hot-seat app unless it runs under the host.
"""
