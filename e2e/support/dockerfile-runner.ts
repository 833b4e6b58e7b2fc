/**
 * A Dockerfile's steps, run on this machine as a build would run them, for a test where no
 * Docker daemon is: the context copied as its `.dockerignore` filters it (Docker's own rules,
 * @balena/dockerignore), each stage in a folder of its own standing for the image's filesystem,
 * the instructions read from the file (dockerfile-ast) and carried out in order (ARG, FROM,
 * WORKDIR, COPY with --from and --chown, keeping modification times as COPY does, RUN, ENV,
 * USER, VOLUME, EXPOSE, HEALTHCHECK, CMD), and
 * the image's CMD started as the user its USER names stands for: an unprivileged user of this
 * machine, so the files it may write are those the Dockerfile gave it.
 *
 * What cannot run here is said, not hidden: a RUN that installs the base image's system
 * packages (apt-get: this machine has the build tools), and the base image itself, which is
 * this machine's Node (checked against the image's tag) copied into the stage.
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  copyFileSync,
  cpSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  utimesSync,
} from "node:fs";
import { dirname, join, posix } from "node:path";
import dockerignore from "@balena/dockerignore";
import { type Copy, DockerfileParser, type From, type Instruction } from "dockerfile-ast";

// A CommonJS module whose types declare an ES default: its factory is the module itself.
const ignore = dockerignore as unknown as typeof dockerignore.default;

/** A user of this machine that a USER of the Dockerfile stands for. */
export interface HostUser {
  readonly uid: number;
  readonly gid: number;
}

export interface DockerfileRunOptions {
  /**
   * An empty folder: the filtered context and each stage's filesystem go under it. The folders
   * above it must be searchable by the image's users (a folder of /tmp is).
   */
  readonly root: string;
  /** Who each user name of the Dockerfile (USER, --chown) is here: `{ node: nobody }`. */
  readonly users: Readonly<Record<string, HostUser>>;
  /** Added to every RUN's environment (the npm registry a test's build reaches). */
  readonly buildEnv?: Readonly<Record<string, string | undefined>>;
  /** Every step as it runs or is skipped, for the test's failure message. */
  readonly log?: (line: string) => void;
}

/** The image a Dockerfile made: its final stage's filesystem and configuration. */
export interface BuiltImage {
  /** The folder standing for the image's `/`. */
  readonly root: string;
  /** The WORKDIR, as a path of this machine. */
  readonly workdir: string;
  readonly env: Readonly<Record<string, string>>;
  /** The user CMD runs as (USER), or root. */
  readonly user: HostUser | undefined;
  readonly cmd: readonly string[];
  readonly healthcheck: readonly string[] | undefined;
  readonly volumes: readonly string[];
  /** The Node version of the base image's tag (`24` from `node:24-bookworm-slim`). */
  readonly nodeVersion: string | undefined;
  /** Instructions that did not run here, with why. */
  readonly skipped: readonly string[];
}

interface Stage {
  name: string | undefined;
  root: string;
  workdir: string;
  env: Record<string, string>;
  user: HostUser | undefined;
  cmd: string[];
  healthcheck: string[] | undefined;
  volumes: string[];
  nodeVersion: string | undefined;
}

/** RUN steps that install the base image's system packages: not this machine's to change. */
const SYSTEM_PACKAGES = /^\s*(apt-get|apk|yum|dnf)\b/;

/**
 * Copies the build context `context` into `dest` as docker build sends it: without what its
 * `.dockerignore` excludes. Returns the relative paths copied.
 */
export function copyContext(context: string, dest: string): string[] {
  let patterns = "";
  try {
    patterns = readFileSync(join(context, ".dockerignore"), "utf8");
  } catch {
    // No .dockerignore: everything goes.
  }
  const rules = ignore().add(patterns);
  const exceptions = patterns.split("\n").some((line) => line.trim().startsWith("!"));
  const copied: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(context, rel), { withFileTypes: true })) {
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        // An excluded folder no `!` rule can reach into is not walked (node_modules, .git).
        if (rules.ignores(path) && !exceptions) continue;
        walk(path);
        continue;
      }
      if (rules.ignores(path)) continue;
      const target = join(dest, path);
      mkdirSync(dirname(target), { recursive: true });
      if (entry.isSymbolicLink()) symlinkSync(readlinkSync(join(context, path)), target);
      else cpSync(join(context, path), target, { preserveTimestamps: true });
      copied.push(path);
    }
  };
  mkdirSync(dest, { recursive: true });
  walk("");
  // Folders keep their times too, as the context docker build sends does.
  const keepTimes = (rel: string) => {
    const target = join(dest, rel);
    if (!statSync(target, { throwIfNoEntry: false })?.isDirectory()) return;
    for (const entry of readdirSync(target, { withFileTypes: true })) {
      if (entry.isDirectory()) keepTimes(rel === "" ? entry.name : `${rel}/${entry.name}`);
    }
    const { atime, mtime } = statSync(join(context, rel));
    utimesSync(target, atime, mtime);
  };
  keepTimes("");
  return copied.sort();
}

/** `path` of the image (absolute, or relative to the stage's WORKDIR) as a path here. */
function inStage(stage: Stage, path: string): string {
  const absolute = posix.isAbsolute(path) ? path : posix.join(stage.workdir, path);
  return join(stage.root, posix.normalize(absolute));
}

/** chown -R, as COPY --chown does for what it copied (a link itself, not what it points to). */
function chownTree(path: string, user: HostUser): void {
  lchownSync(path, user.uid, user.gid);
  if (lstatSync(path).isDirectory()) {
    for (const entry of readdirSync(path)) chownTree(join(path, entry), user);
  }
}

/**
 * Copies the folder `from` into `to` as COPY does: contents merged into `to`, modification
 * times kept, folders' too (cpSync keeps files' only; an app's build is judged by them).
 */
function copyTree(from: string, to: string): void {
  cpSync(from, to, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
  const keepTimes = (source: string, target: string) => {
    for (const entry of readdirSync(source, { withFileTypes: true })) {
      if (entry.isDirectory()) keepTimes(join(source, entry.name), join(target, entry.name));
    }
    const { atime, mtime } = statSync(source);
    utimesSync(target, atime, mtime);
  };
  keepTimes(from, to);
}

/** Makes `dir` and the folders above it up to `root` readable and searchable by everyone. */
function openPath(root: string, dir: string): void {
  for (let at = dir; at.startsWith(root); at = dirname(at)) {
    chmodSync(at, statSync(at).mode | 0o755);
    if (at === root) break;
  }
}

function runShell(
  command: string,
  cwd: string,
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("/bin/sh", ["-c", command], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** The value of `--name=value` on an instruction, or undefined. */
function flag(instruction: Instruction, name: string): string | undefined {
  const flags = (instruction as Copy).getFlags?.() ?? [];
  return flags.find((f) => f.getName() === name)?.getValue() ?? undefined;
}

/**
 * Runs the Dockerfile in `context` (its `Dockerfile`) as a build would, under `options.root`;
 * resolves with the final stage. A RUN that fails throws with its output.
 *
 * @example
 * const image = await buildDockerfile(app, { root, users: { node: { uid: 65534, gid: 65534 } } });
 * const server = startImage(image, { PORT: "0" });
 */
export async function buildDockerfile(
  context: string,
  options: DockerfileRunOptions,
): Promise<BuiltImage> {
  const log = options.log ?? (() => {});
  // The image's users must reach their files: the folders above `root` must let them pass.
  chmodSync(options.root, 0o755);
  const contextCopy = join(options.root, "context");
  log(`context: ${copyContext(context, contextCopy).length} files after .dockerignore`);
  const dockerfile = DockerfileParser.parse(readFileSync(join(context, "Dockerfile"), "utf8"));
  const stages: Stage[] = [];
  const skipped: string[] = [];
  // Node, for the stages' PATH: the base image's /usr/local/bin/node, this machine's here.
  const hostPath = process.env.PATH ?? "/usr/bin:/bin";
  let stage: Stage | undefined;
  const current = (): Stage => {
    if (!stage) throw new Error("an instruction before the first FROM");
    return stage;
  };
  const userOf = (spec: string): HostUser | undefined => {
    const name = spec.split(":")[0]!;
    if (name === "root" || name === "0") return undefined;
    const user = options.users[name];
    if (!user) throw new Error(`the Dockerfile names the user ${name}, which options.users lacks`);
    return user;
  };

  for (const instruction of dockerfile.getInstructions()) {
    const keyword = instruction.getKeyword();
    const args = instruction.getExpandedArguments().map((a) => a.getValue());
    log(`${keyword} ${instruction.getArgumentsContent() ?? ""}`);
    switch (keyword) {
      case "ARG":
        break; // dockerfile-ast expands ARG values where they are used.
      case "FROM": {
        const from = instruction as From;
        const base = args[0]!;
        const earlier = stages.find((s) => s.name === base);
        const root = join(
          options.root,
          `stage-${stages.length}${from.getBuildStage() ? `-${from.getBuildStage()}` : ""}`,
        );
        if (earlier) {
          copyTree(earlier.root, root);
          stage = {
            ...earlier,
            name: from.getBuildStage() ?? undefined,
            root,
            env: { ...earlier.env },
            cmd: [...earlier.cmd],
            volumes: [...earlier.volumes],
          };
        } else {
          mkdirSync(root, { recursive: true });
          const tag = /^node:(\d+)/.exec(base)?.[1];
          stage = {
            name: from.getBuildStage() ?? undefined,
            root,
            workdir: "/",
            env: {},
            user: undefined,
            cmd: [],
            healthcheck: undefined,
            volumes: [],
            nodeVersion: tag,
          };
          skipped.push(`FROM ${base}: this machine's Node ${process.versions.node} stands for it`);
        }
        stages.push(stage);
        break;
      }
      case "WORKDIR": {
        const s = current();
        s.workdir = posix.isAbsolute(args[0]!) ? args[0]! : posix.join(s.workdir, args[0]!);
        mkdirSync(inStage(s, "."), { recursive: true });
        break;
      }
      case "ENV":
        for (const property of (
          instruction as unknown as {
            getProperties(): { getName(): string; getValue(): string | null }[];
          }
        ).getProperties()) {
          current().env[property.getName()] = property.getValue() ?? "";
        }
        break;
      case "COPY": {
        const s = current();
        const fromStage = flag(instruction, "from");
        const chown = flag(instruction, "chown");
        const paths = args.filter((a) => !a.startsWith("--"));
        const dest = paths.pop()!;
        const sourceRoot =
          fromStage === undefined
            ? contextCopy
            : (stages.find((x) => x.name === fromStage)?.root ??
              (() => {
                throw new Error(`COPY --from=${fromStage}: no such stage`);
              })());
        const target = inStage(s, dest);
        const intoFolder = dest.endsWith("/") || paths.length > 1;
        const user = chown === undefined ? undefined : userOf(chown);
        for (const source of paths) {
          const from = join(sourceRoot, posix.normalize(source));
          if (statSync(from).isDirectory()) {
            // A folder's contents go into the destination, as COPY does; --chown owns what was
            // copied (and the destination when COPY made it), not a folder that was there.
            const existed = statSync(target, { throwIfNoEntry: false }) !== undefined;
            mkdirSync(target, { recursive: true });
            copyTree(from, target);
            if (user) {
              if (!existed) chownSync(target, user.uid, user.gid);
              for (const entry of readdirSync(from)) chownTree(join(target, entry), user);
            }
          } else {
            const to = intoFolder ? join(target, posix.basename(source)) : target;
            mkdirSync(dirname(to), { recursive: true });
            cpSync(from, to, { preserveTimestamps: true });
            if (user) chownSync(to, user.uid, user.gid);
          }
        }
        break;
      }
      case "RUN": {
        const s = current();
        const command = instruction.getArgumentsContent() ?? "";
        if (SYSTEM_PACKAGES.test(command)) {
          skipped.push(`RUN ${command}: the base image's system packages (this machine has them)`);
          break;
        }
        if (s.user) throw new Error(`RUN as ${JSON.stringify(s.user)} is not supported here`);
        // A build's environment: the stage's ENV, a PATH with Node, and the test's registry.
        const ran = await runShell(command, inStage(s, "."), {
          PATH: hostPath,
          HOME: process.env.HOME ?? "/root",
          ...s.env,
          ...options.buildEnv,
        });
        if (ran.code !== 0) throw new Error(`RUN ${command} failed (${ran.code}):\n${ran.output}`);
        break;
      }
      case "USER":
        current().user = userOf(args[0]!);
        break;
      case "VOLUME":
        current().volumes.push(...args);
        break;
      case "EXPOSE":
      case "LABEL":
        break;
      case "HEALTHCHECK": {
        const content = (instruction.getArgumentsContent() ?? "").replace(/^(--\S+\s+)*/, "");
        current().healthcheck = JSON.parse(content.replace(/^CMD\s+/, "")) as string[];
        break;
      }
      case "CMD":
        current().cmd = JSON.parse(instruction.getArgumentsContent() ?? "[]") as string[];
        break;
      default:
        throw new Error(`${keyword} is not an instruction this runner knows`);
    }
  }
  const final = current();
  // The image's Node, where its user can run it (this machine's may sit in root's home).
  const bin = join(final.root, "usr/local/bin");
  mkdirSync(bin, { recursive: true });
  copyFileSync(process.execPath, join(bin, "node"));
  chmodSync(join(bin, "node"), 0o755);
  openPath(options.root, bin);
  openPath(options.root, inStage(final, "."));
  // The user's home, as the node image has /home/node.
  const home = join(final.root, "home/user");
  mkdirSync(home, { recursive: true });
  if (final.user) chownSync(home, final.user.uid, final.user.gid);
  openPath(options.root, home);
  final.env.PATH = `${bin}:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin`;
  final.env.HOME = home;
  return {
    root: final.root,
    workdir: inStage(final, "."),
    env: final.env,
    user: final.user,
    cmd: final.cmd,
    healthcheck: final.healthcheck,
    volumes: final.volumes,
    nodeVersion: final.nodeVersion ?? stages[0]?.nodeVersion,
    skipped,
  };
}

/**
 * Starts the image's CMD as `docker run -e ...` would: in its WORKDIR, as its USER, with its ENV
 * and `env` on top, and nothing of this process's environment.
 */
export function startImage(
  image: BuiltImage,
  env: Readonly<Record<string, string>> = {},
): ChildProcess {
  const [command, ...args] = image.cmd;
  if (!command) throw new Error("the image has no CMD");
  return spawn(command, args, {
    cwd: image.workdir,
    env: { ...image.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    ...(image.user ? { uid: image.user.uid, gid: image.user.gid } : {}),
  });
}

/** An image's CMD running: its process and everything it printed so far. */
export interface RunningImage {
  readonly child: ChildProcess;
  log(): string;
}

/**
 * {@link startImage}, resolved once the server prints its `listening on` line; rejects with what
 * it printed when the CMD exits first or prints no such line within `timeoutMs`.
 * @example const { child, log } = await runImage(image, { PORT: "3000", HOST: "127.0.0.1" });
 */
export async function runImage(
  image: BuiltImage,
  env: Readonly<Record<string, string>>,
  timeoutMs = 120_000,
): Promise<RunningImage> {
  const child = startImage(image, env);
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no listening line in ${timeoutMs / 1000} s:\n${output}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening on http:\/\/127\.0\.0\.1:\d+/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the image's CMD exited (${code}):\n${output}`));
    });
  });
  return { child, log: () => output };
}

/** Stops an image's CMD as `docker stop` does (SIGTERM); resolves with its exit code. */
export async function stopImage(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  child.kill("SIGTERM");
  return exited;
}
