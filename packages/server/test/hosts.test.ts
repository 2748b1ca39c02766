// The tests that build hosts of their own (network namespaces, a PostgreSQL and a NATS cluster,
// HAProxy, several server processes, a PostgreSQL standby) run one after another in this one file,
// so one worker holds them while the other runs the in-process tiers beside it. They share the
// namespaces' names and the machine's ports, so two of them never run at once; they wait on
// processes far more than they compute (about 70% idle when they ran alone at the end of the run),
// and beside a browser they starve its pages, so vitest.config.ts ranks this file after the page
// tests. Run one alone with: npx vitest run hosts -t '<its describe name>'.
import './deploy/deployment.hosts.js';
import './deploy/drain.hosts.js';
import './fleet-stuck-host.hosts.js';
import '../../cli/test/receipts-failover.hosts.js';
