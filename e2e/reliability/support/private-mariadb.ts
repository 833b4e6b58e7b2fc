import { execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { gidOf, uidOf } from "./databases.js";

const INSTALL_DB = "/usr/bin/mariadb-install-db";
const SERVER = "/usr/sbin/mariadbd";
const ADMIN = "/usr/bin/mariadb-admin";
const RUNUSER = "/usr/sbin/runuser";

/** Whether a private MariaDB can be run here (the binaries, runuser and root); prints why not. */
export function mariadbAvailable(): boolean {
  const ok =
    [INSTALL_DB, SERVER, ADMIN, RUNUSER].every((file) => existsSync(file)) &&
    process.getuid?.() === 0;
  if (!ok)
    console.warn(
      "SKIPPING the MySQL database-outage test: it needs mariadb-install-db, mariadbd, mariadb-admin, runuser and root (to run them as the mysql user)",
    );
  return ok;
}

/**
 * A private MariaDB server (mariadb-install-db into a temp folder, mariadbd on a free 127.0.0.1
 * port, run as the mysql user) that a test may stop and start without disturbing the machine's
 * shared server. Grant tables are skipped, so any password is accepted (as PostgreSQL's trust).
 */
export class PrivateMariaDb {
  readonly dir = mkdtempSync(join(tmpdir(), "wisent-mariadb-"));
  readonly data = join(this.dir, "data");
  readonly socket = join(this.dir, "sock");

  constructor(readonly port: number) {
    chownSync(this.dir, uidOf("mysql"), gidOf("mysql"));
  }

  /** `mysql://root:<password>@127.0.0.1:<port>/<database>`. */
  url(password = "", database = "mysql"): string {
    return `mysql://root${password ? `:${password}` : ""}@127.0.0.1:${this.port}/${database}`;
  }

  init(): void {
    execFileSync(
      RUNUSER,
      [
        "-u",
        "mysql",
        "--",
        INSTALL_DB,
        "--no-defaults",
        `--datadir=${this.data}`,
        "--skip-test-db",
      ],
      { stdio: "pipe", cwd: this.dir },
    );
  }

  /** Starts mariadbd and resolves once it answers a ping (bounded: 30 s). */
  async start(): Promise<void> {
    const server = spawn(
      RUNUSER,
      [
        "-u",
        "mysql",
        "--",
        SERVER,
        "--no-defaults",
        `--datadir=${this.data}`,
        `--port=${this.port}`,
        "--bind-address=127.0.0.1",
        `--socket=${this.socket}`,
        `--pid-file=${join(this.dir, "pid")}`,
        `--log-error=${join(this.dir, "error.log")}`,
        "--skip-grant-tables",
        "--skip-log-bin",
        "--innodb-flush-log-at-trx-commit=0",
      ],
      { stdio: "ignore", detached: false },
    );
    server.unref();
    for (let i = 0; i < 300; i++) {
      if (this.#ping()) return;
      if (server.exitCode !== null) break;
      await sleep(100);
    }
    throw new Error(`the private MariaDB did not start (see ${join(this.dir, "error.log")})`);
  }

  /** Shuts the server down; its open connections are closed, as when a database server goes away. */
  stop(): void {
    execFileSync(ADMIN, ["--no-defaults", `--socket=${this.socket}`, "-uroot", "shutdown"], {
      stdio: "pipe",
    });
  }

  destroy(): void {
    try {
      if (this.#ping()) this.stop();
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  #ping(): boolean {
    try {
      execFileSync(ADMIN, ["--no-defaults", `--socket=${this.socket}`, "-uroot", "ping"], {
        stdio: "pipe",
      });
      return true;
    } catch {
      return false;
    }
  }
}
