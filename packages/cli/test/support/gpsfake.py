#!/usr/bin/python3
# A minimal gpsfake: replays an NMEA log into a real gpsd through a pseudo-terminal, with the
# engine the gpsfake program is built on (gps.fake from Debian's python3-gps). Debian 12 ships the
# gpsfake program itself only in gpsd-clients, which pulls in about 500 MB of GTK and matplotlib;
# this is the same session (gpsd spawned with -b -N -S PORT, a FakePTY fed line by line).
# Usage: gpsfake.py LOGFILE
#   prints "ready PORT" once gpsd listens on PORT (a free one), starts the log when a line arrives on stdin (so that the
#   client under test is connected before the first sentence), and ends when its stdin closes:
#   it stops gpsd and reaps it first (killed outright it would leave gpsd a zombie: in a container
#   whose first process does not reap orphans, nothing else ever would).
import os
import sys
import threading
from gps import fake

logfile = sys.argv[1]
session = fake.TestSession(options="-n", timeout=3600)
session.spawn()
# Play the log once; afterwards the loop idles (gpsd keeps its last fix) until we are killed.
session.set_predicate(lambda index, dev: index < len(dev.testload.sentences))
print("ready %d" % session.port, flush=True)
# gpsd does not remove its control socket when it stops: the session does, once gpsd is gone.
control_socket = session.daemon.control_socket


def stop():
    session.cleanup()
    if os.path.exists(control_socket):
        os.unlink(control_socket)


def end_on_eof():
    sys.stdin.read()
    stop()
    os._exit(0)


if not sys.stdin.readline():
    stop()
    sys.exit(0)
threading.Thread(target=end_on_eof, daemon=True).start()
session.gps_add(logfile, speed=38400, oneshot=True)
try:
    session.run()
finally:
    stop()
