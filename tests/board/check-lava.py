#!/usr/bin/env python3
"""board/lava checked without a LAVA lab.

    check-lava.py schema SOURCE_ROOT
    check-lava.py steps SOURCE_ROOT WORKDIR SELFTEST NPU_INFO

schema: board/lava/npurun-selftest.yaml against the structure LAVA documents for a Lava-Test Test
Definition 1.0 (metadata with format "Lava-Test Test Definition 1.0" and a name without whitespace or
$&"'`()<>/\\|; characters, run.steps a list of strings, params a mapping of scalars), and
board/lava/rk3588-selftest-job.yaml, with its ${NAME} placeholders filled, against LAVA's job submission
schema as far as this job uses it (job_name, device_type, timeouts.job, visibility, priority, the
single-key actions deploy to tftp / boot u-boot / test definitions from git, timeouts of one unit and not
longer than the job's), plus the ties between them (the job's definition path exists, its parameters are
ones the definition declares, the scripts the steps run exist and are executable). Then each of a list of
planted mistakes must be caught: a checker that accepts anything fails here.

steps: renders the definition's run steps into a shell script the way LAVA's test shell does (the
definition's params, then the job's parameters, as plain shell variables; set -e; the steps, from the
top of a copy of the repository) and runs it with /bin/sh against --device sim. lava-test-case,
lava-test-set and lava-test-reference are test doubles on PATH that print the signal lines LAVA's own
helpers print (<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=... RESULT=...>, <LAVA_SIGNAL_TESTSET START|STOP>) and
refuse a malformed call. Checks the result lines: one per self-test case in set selftest-sim with the
result the --csv report gives, the npu-info and verdict cases, the expectations set, the upload. Runs
with the board's lists (everything passes), the same under busybox ash when busybox is installed (the
shell of Buildroot images; every script's #! line pointed at it), and with a planted failure (--test-corrupt through a
wrapper) listed as expected, one not listed, to show both reach the dashboard as they should.
One line per failure; exit 1 if any.
"""
import copy
import csv
import os
import re
import shutil
import stat
import subprocess
import sys

try:
    import yaml
except ImportError:
    print('skipped: python3-yaml is not installed (tools/ci/install-deps.sh test installs it)')
    sys.exit(77)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common'))
from check_failures import fail, finish  # noqa: E402  (after the path it is found on)


# ---------------------------------------------------------------------------------------------------------
# The structure LAVA documents (written from its documentation: job definition, test definition, the
# deploy/boot/test action references). Each checker returns a list of problems, "" path first.

TESTDEF_FORMAT = 'Lava-Test Test Definition 1.0'
BAD_NAME_CHARS = set('$& "\'`()<>/\\|;')
TIMEOUT_UNITS = ('days', 'hours', 'minutes', 'seconds')
COMPRESSIONS = ('bz2', 'gz', 'xz', 'zip', 'zstd', None)


def bad_name(name):
    return not isinstance(name, str) or not name or any(c in BAD_NAME_CHARS or c.isspace() or ord(c) > 127 for c in name)


def check_testdef(d):
    p = []
    if not isinstance(d, dict):
        return ['test definition: not a mapping']
    for k in d:
        if k not in ('metadata', 'run', 'params', 'install', 'parse'):
            p.append(f'test definition: unknown top-level key {k!r}')
    m = d.get('metadata')
    if not isinstance(m, dict):
        p.append('metadata: missing (format and name are mandatory)')
    else:
        if m.get('format') != TESTDEF_FORMAT:
            p.append(f'metadata.format: {m.get("format")!r}, not {TESTDEF_FORMAT!r}')
        if bad_name(m.get('name')):
            p.append(f'metadata.name: {m.get("name")!r} is empty or has whitespace, non-ASCII or one of $&"\'`()<>/\\|;')
        if 'description' in m and not isinstance(m['description'], str):
            p.append('metadata.description: not a string')
        for k in ('maintainer', 'os', 'scope', 'devices'):
            if k in m and not (isinstance(m[k], list) and all(isinstance(x, str) for x in m[k])):
                p.append(f'metadata.{k}: not a list of strings')
    run = d.get('run')
    if not isinstance(run, dict) or set(run) != {'steps'}:
        p.append('run: must be a mapping whose only key is steps')
    elif not isinstance(run['steps'], list) or not run['steps'] or not all(isinstance(s, str) for s in run['steps']):
        p.append('run.steps: must be a non-empty list of strings (each one line of the test shell script)')
    params = d.get('params', {})
    if not isinstance(params, dict):
        p.append('params: not a mapping')
    else:
        for k, v in params.items():
            if not re.fullmatch(r'[A-Za-z_][A-Za-z0-9_]*', str(k)):
                p.append(f'params: {k!r} is not a shell variable name')
            if not isinstance(v, (str, int, float, bool)):
                p.append(f'params.{k}: {v!r} is not a scalar')
    return p


def check_timeout(t, where):
    if not isinstance(t, dict) or len([k for k in t if k in TIMEOUT_UNITS]) != 1 or \
            any(k not in TIMEOUT_UNITS + ('skip',) for k in t):
        return [f'{where}: a timeout is one of {TIMEOUT_UNITS} (and optionally skip), got {t!r}']
    unit = next(k for k in t if k in TIMEOUT_UNITS)
    if not isinstance(t[unit], int) or isinstance(t[unit], bool) or t[unit] < 1:
        return [f'{where}.{unit}: {t[unit]!r} is not a positive integer']
    return []


def seconds(t):
    unit = next(k for k in t if k in TIMEOUT_UNITS)
    return t[unit] * {'days': 86400, 'hours': 3600, 'minutes': 60, 'seconds': 1}[unit]


def check_url(u, where, extra=()):
    if not isinstance(u, dict) or not isinstance(u.get('url'), str) or not u['url']:
        return [f'{where}: needs a url']
    p = []
    for k in u:
        if k not in ('url', 'headers', 'compression', 'archive', 'md5sum', 'sha256sum', 'sha512sum') + tuple(extra):
            p.append(f'{where}: unknown key {k!r}')
    if u.get('compression', None) not in COMPRESSIONS:
        p.append(f'{where}.compression: {u["compression"]!r} is not one of {COMPRESSIONS}')
    return p


ACTION_COMMON = ('namespace', 'connection-namespace', 'protocols', 'role', 'timeout', 'repeat', 'failure_retry')


def check_deploy(a, where):
    p = []
    if a.get('to') != 'tftp':
        return [f'{where}.to: this job deploys to tftp, got {a.get("to")!r}']
    for k in a:
        if k not in ACTION_COMMON + ('to', 'kernel', 'dtb', 'modules', 'preseed', 'ramdisk', 'nfsrootfs', 'persistent_nfs',
                                     'os', 'authorize'):
            p.append(f'{where}: unknown key {k!r}')
    if 'kernel' not in a:
        p.append(f'{where}: a tftp deploy needs a kernel')
    else:
        p += check_url(a['kernel'], where + '.kernel', ('type',))
        if isinstance(a['kernel'], dict) and a['kernel'].get('type', 'image') not in ('image', 'uimage', 'zimage'):
            p.append(f'{where}.kernel.type: {a["kernel"]["type"]!r} is not image, uimage or zimage')
    for k in ('dtb', 'modules'):
        if k in a:
            p += check_url(a[k], f'{where}.{k}')
    if 'ramdisk' in a:
        p += check_url(a['ramdisk'], where + '.ramdisk', ('install_modules', 'install_overlay', 'header'))
    if 'nfsrootfs' in a and 'persistent_nfs' in a:
        p.append(f'{where}: nfsrootfs and persistent_nfs exclude each other')
    if 'nfsrootfs' in a:
        p += check_url(a['nfsrootfs'], where + '.nfsrootfs', ('install_modules', 'install_overlay', 'prefix'))
    if 'os' in a and not isinstance(a['os'], str):
        p.append(f'{where}.os: not a string')
    return p


def check_boot(a, where):
    p = []
    if a.get('method') != 'u-boot':
        return [f'{where}.method: this job boots with u-boot, got {a.get("method")!r}']
    for k in a:
        if k not in ACTION_COMMON + ('method', 'commands', 'prompts', 'auto_login', 'use_bootscript', 'transfer_overlay',
                                     'parameters', 'soft_reboot'):
            p.append(f'{where}: unknown key {k!r}')
    cmds = a.get('commands')
    if not (isinstance(cmds, str) and cmds) and not (isinstance(cmds, list) and all(isinstance(c, str) for c in cmds)):
        p.append(f'{where}.commands: required, a command set name or a list of commands')
    prompts = a.get('prompts')
    if not isinstance(prompts, list) or not prompts or not all(isinstance(x, str) and x for x in prompts):
        p.append(f'{where}.prompts: a POSIX shell boot needs a non-empty list of non-empty prompts')
    al = a.get('auto_login')
    if al is not None:
        if not isinstance(al, dict) or not isinstance(al.get('login_prompt'), str) or not al['login_prompt'] \
                or not isinstance(al.get('username'), str):
            p.append(f'{where}.auto_login: needs login_prompt and username')
        elif ('password_prompt' in al) != ('password' in al):
            p.append(f'{where}.auto_login: password_prompt and password go together')
    return p


def check_test(a, where):
    p = []
    for k in a:
        if k not in ACTION_COMMON + ('definitions', 'name'):
            p.append(f'{where}: unknown key {k!r}')
    defs = a.get('definitions')
    if not isinstance(defs, list) or not defs:
        return p + [f'{where}.definitions: a non-empty list']
    names = set()
    for i, d in enumerate(defs):
        w = f'{where}.definitions[{i}]'
        if not isinstance(d, dict):
            p.append(f'{w}: not a mapping')
            continue
        for k in ('repository', 'from', 'path', 'name'):
            if k not in d:
                p.append(f'{w}: {k} is required')
        if d.get('from') not in ('git', 'bzr', 'inline'):
            p.append(f'{w}.from: {d.get("from")!r} is not git, bzr or inline')
        if d.get('from') in ('git', 'bzr') and not (isinstance(d.get('repository'), str) and d['repository']):
            p.append(f'{w}.repository: a {d["from"]} definition names its repository URL')
        for k in d:
            if k not in ('repository', 'from', 'path', 'name', 'branch', 'revision', 'history', 'lava-signal', 'parameters',
                         'params', 'skip_install'):
                p.append(f'{w}: unknown key {k!r}')
        if bad_name(d.get('name')):
            p.append(f'{w}.name: {d.get("name")!r} is not a valid test suite name')
        if d.get('name') in names:
            p.append(f'{w}.name: {d["name"]!r} used twice')
        names.add(d.get('name'))
        for k in ('parameters', 'params'):
            if k in d:
                if not isinstance(d[k], dict):
                    p.append(f'{w}.{k}: not a mapping')
                else:
                    for pk, pv in d[k].items():
                        if not isinstance(pv, str):
                            p.append(f'{w}.{k}.{pk}: {pv!r} is not a string (an empty placeholder became null?)')
    return p


def check_job(j):
    if not isinstance(j, dict):
        return ['job: not a mapping']
    p = []
    allowed = ('job_name', 'device_type', 'timeouts', 'visibility', 'context', 'metadata', 'priority', 'tags', 'secrets',
               'environment', 'protocols', 'notify', 'reboot_to_fastboot', 'actions')
    for k in j:
        if k not in allowed:
            p.append(f'job: unknown top-level key {k!r}')
    for k in ('job_name', 'timeouts', 'visibility', 'actions', 'device_type'):
        if k not in j:
            p.append(f'job: {k} is required')
    if 'job_name' in j and not (isinstance(j['job_name'], str) and 1 <= len(j['job_name']) <= 200):
        p.append('job_name: a string of 1 to 200 characters')
    if 'device_type' in j and not (isinstance(j['device_type'], str) and 1 <= len(j['device_type']) <= 200):
        p.append('device_type: a string of 1 to 200 characters')
    v = j.get('visibility')
    if 'visibility' in j and v not in ('public', 'personal') and not (isinstance(v, dict) and list(v) == ['group']):
        p.append(f'visibility: {v!r} is not public, personal or {{group: [...]}}')
    pr = j.get('priority', 'medium')
    if pr not in ('high', 'medium', 'low') and not (isinstance(pr, int) and 0 <= pr <= 100):
        p.append(f'priority: {pr!r} is not high, medium, low or 0..100')
    if 'metadata' in j and not isinstance(j['metadata'], dict):
        p.append('metadata: not a mapping')
    job_seconds = None
    t = j.get('timeouts')
    if 'timeouts' in j:
        if not isinstance(t, dict) or 'job' not in t:
            p.append('timeouts.job is required')
        else:
            for k in t:
                if k not in ('job', 'action', 'actions', 'connection', 'connections'):
                    p.append(f'timeouts: unknown key {k!r}')
            for k in ('job', 'action', 'connection'):
                if k in t:
                    p += check_timeout(t[k], 'timeouts.' + k)
            if not check_timeout(t['job'], 'timeouts.job'):
                job_seconds = seconds(t['job'])
                for k in ('action', 'connection'):
                    if k in t and not check_timeout(t[k], k) and seconds(t[k]) > job_seconds:
                        p.append(f'timeouts.{k}: longer than the job timeout')
    acts = j.get('actions')
    if 'actions' in j:
        if not isinstance(acts, list) or not acts:
            p.append('actions: a non-empty list')
            acts = []
        for i, act in enumerate(acts):
            w = f'actions[{i}]'
            if not isinstance(act, dict) or len(act) != 1 or next(iter(act)) not in ('deploy', 'boot', 'test', 'command'):
                p.append(f'{w}: each action is a mapping with exactly one of deploy, boot, test, command')
                continue
            kind, body = next(iter(act.items()))
            if not isinstance(body, dict):
                p.append(f'{w}.{kind}: not a mapping')
                continue
            if 'timeout' in body:
                tp = check_timeout(body['timeout'], f'{w}.{kind}.timeout')
                p += tp
                if not tp and job_seconds is not None and seconds(body['timeout']) > job_seconds:
                    p.append(f'{w}.{kind}.timeout: longer than the job timeout')
            p += {'deploy': check_deploy, 'boot': check_boot, 'test': check_test,
                  'command': lambda a, w: [] if isinstance(a.get('name'), str) else [f'{w}: a command needs a name']}[kind](
                body, f'{w}.{kind}')
        kinds = [next(iter(a)) for a in acts if isinstance(a, dict) and len(a) == 1]
        # The order a board needs: something deployed before it boots, booted before a test shell runs.
        if 'test' in kinds and ('boot' not in kinds or kinds.index('boot') > kinds.index('test')):
            p.append('actions: a test action needs a boot action before it')
        if 'boot' in kinds and ('deploy' not in kinds or kinds.index('deploy') > kinds.index('boot')):
            p.append('actions: a boot action needs a deploy action before it')
    return p


# ---------------------------------------------------------------------------------------------------------
# The files of board/lava and how they fit together

SAMPLE = {'LAVA_DEVICE_TYPE': 'rk3588-rock-5b', 'KERNEL_URL': 'https://artifacts.example/rk3588/Image',
          'DTB_URL': 'https://artifacts.example/rk3588/rk3588-rock-5b.dtb',
          'ROOTFS_URL': 'https://artifacts.example/rk3588/rootfs.tar.xz',
          'NPURUN_GIT_URL': 'https://git.example/npurun.git', 'NPURUN_REVISION': '0123456789abcdef', 'UPLOAD_URL': ''}


def fill(template, values):
    """envsubst: ${NAME} -> values[NAME]; an unknown placeholder is a failure (the generator would miss it)."""
    body = '\n'.join(l for l in template.splitlines() if not l.lstrip().startswith('#'))
    names = set(re.findall(r'\$\{([A-Za-z_][A-Za-z0-9_]*)\}', body))
    unknown = names - set(values)
    if unknown:
        fail(f'job template: placeholders {sorted(unknown)} are not documented in its header')
    return re.sub(r'\$\{([A-Za-z_][A-Za-z0-9_]*)\}', lambda m: values.get(m.group(1), ''), template)


def load(src):
    lava = os.path.join(src, 'board', 'lava')
    testdef = yaml.safe_load(open(os.path.join(lava, 'npurun-selftest.yaml')))
    template = open(os.path.join(lava, 'rk3588-selftest-job.yaml')).read()
    for name in SAMPLE:
        if not re.search(r'^#\s+' + name + r'\s', template, re.M):
            fail(f'job template: placeholder {name} is not described in its header')
    job = yaml.safe_load(fill(template, SAMPLE))
    return testdef, job


def job_definition(job):
    for a in job.get('actions', []):
        if isinstance(a, dict) and 'test' in a and isinstance(a['test'], dict):
            for d in a['test'].get('definitions', []):
                if isinstance(d, dict) and d.get('path') == 'board/lava/npurun-selftest.yaml':
                    return d
    return None


def check_ties(src, testdef, job):
    p = []
    d = job_definition(job)
    if d is None:
        return ['job: no test definition with path board/lava/npurun-selftest.yaml']
    if not os.path.isfile(os.path.join(src, d['path'])):
        p.append(f'job: definition path {d["path"]} does not exist')
    declared = set(testdef.get('params', {}))
    for k in d.get('parameters', {}):
        if k not in declared:
            p.append(f'job: parameter {k} is not a param of the definition (LAVA would set a variable nobody reads)')
    for step in testdef.get('run', {}).get('steps', []):
        word = step.split()[0] if step.split() else ''
        if '/' in word:
            path = os.path.join(src, word)
            if not os.path.isfile(path) or not os.access(path, os.X_OK):
                p.append(f'run.steps: {word} does not exist or is not executable')
    lists = d.get('parameters', {}).get('EXPECTATIONS', testdef.get('params', {}).get('EXPECTATIONS', ''))
    if lists and not any(os.path.isfile(os.path.join(src, f'{lists}-{k}.txt')) for k in ('fails', 'flakes', 'skips')):
        p.append(f'EXPECTATIONS {lists}: no list file in the repository')
    return p


def mutations(testdef, job):
    """(what, testdef, job) with one planted mistake each; the checker must report each one."""
    out = []

    def td(what, f):
        t = copy.deepcopy(testdef)
        f(t)
        out.append((what, t, job))

    def jb(what, f):
        j = copy.deepcopy(job)
        f(j)
        out.append((what, testdef, j))

    td('metadata.format misspelt', lambda t: t['metadata'].update(format='Lava-Test Definition 1.0'))
    td('metadata.name with a space', lambda t: t['metadata'].update(name='npurun selftest'))
    td('metadata missing', lambda t: t.pop('metadata'))
    td('run.steps a string', lambda t: t['run'].update(steps='board/lava/selftest-to-lava.sh'))
    td('run with a second key', lambda t: t['run'].update(command='x'))
    td('params nested', lambda t: t['params'].update(DEVICE={'a': 1}))
    jb('job_name missing', lambda j: j.pop('job_name'))
    jb('visibility misspelt', lambda j: j.update(visibility='everyone'))
    jb('timeouts.job missing', lambda j: j['timeouts'].pop('job'))
    jb('timeout of two units', lambda j: j['timeouts']['job'].update(seconds=5))
    jb('action timeout longer than the job', lambda j: j['actions'][2]['test'].update(timeout={'hours': 2}))
    jb('deploy without a kernel', lambda j: j['actions'][0]['deploy'].pop('kernel'))
    jb('kernel type unknown', lambda j: j['actions'][0]['deploy']['kernel'].update(type='fit'))
    jb('compression unknown', lambda j: j['actions'][0]['deploy']['nfsrootfs'].update(compression='lz4'))
    jb('boot without commands', lambda j: j['actions'][1]['boot'].pop('commands'))
    jb('boot without prompts', lambda j: j['actions'][1]['boot'].pop('prompts'))
    jb('auto_login without username', lambda j: j['actions'][1]['boot']['auto_login'].pop('username'))
    jb('action with two keys', lambda j: j['actions'][0].update(boot={}))
    jb('test before boot', lambda j: j['actions'].reverse())
    jb('definition without from', lambda j: j['actions'][2]['test']['definitions'][0].pop('from'))
    jb('definition name with a slash', lambda j: j['actions'][2]['test']['definitions'][0].update(name='npurun/selftest'))
    jb('parameter the definition lacks', lambda j: j['actions'][2]['test']['definitions'][0]['parameters'].update(DEVCE='npu'))
    jb('empty placeholder left unquoted', lambda j: j['actions'][2]['test']['definitions'][0]['parameters'].update(UPLOAD_URL=None))
    jb('definition path that does not exist',
       lambda j: j['actions'][2]['test']['definitions'][0].update(path='board/lava/missing.yaml'))
    jb('unknown top-level key', lambda j: j.update(job_timeout=3))
    return out


def all_problems(src, testdef, job):
    p = check_testdef(testdef) + check_job(job)
    if not p:
        p += check_ties(src, testdef, job)
    return p


def schema(src):
    testdef, job = load(src)
    problems = all_problems(src, testdef, job)
    for x in problems:
        fail(x)
    if problems:
        return
    print(f'board/lava/npurun-selftest.yaml: a valid {TESTDEF_FORMAT}, {len(testdef["run"]["steps"])} step(s), '
          f'params {sorted(testdef["params"])}')
    print(f'board/lava/rk3588-selftest-job.yaml: a valid job for {job["device_type"]}: '
          f'{" -> ".join(next(iter(a)) for a in job["actions"])}')
    caught = 0
    for what, t, j in mutations(testdef, job):
        if not all_problems(src, t, j):
            fail(f'planted mistake not caught: {what}')
        else:
            caught += 1
    print(f'{caught} planted mistakes caught')


# ---------------------------------------------------------------------------------------------------------
# The steps, run as LAVA's test shell runs them

STUB_CASE = r'''#!/bin/sh
# Test double for LAVA's lava-test-case (tests/board/check-lava.py): records a result the way the real
# helper signals it, and refuses what the real one refuses.
name=$1
[ -n "$name" ] || { echo "lava-test-case: no test case name" >&2; exit 1; }
case $name in *[[:space:]]*) echo "lava-test-case: whitespace in '$name'" >&2; exit 1 ;; esac
shift
result= measurement= units=
while [ $# -gt 0 ]; do
    case $1 in
        --result) result=$2; shift 2 ;;
        --measurement) measurement=$2; shift 2 ;;
        --units) units=$2; shift 2 ;;
        *) echo "lava-test-case: unexpected argument '$1'" >&2; exit 1 ;;
    esac
done
case $result in pass | fail | skip | unknown) ;; *) echo "lava-test-case: bad result '$result'" >&2; exit 1 ;; esac
line="<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=$name RESULT=$result"
[ -n "$units" ] && line="$line UNITS=$units"
[ -n "$measurement" ] && line="$line MEASUREMENT=$measurement"
echo "$line>"
'''

STUB_SET = r'''#!/bin/sh
# Test double for LAVA's lava-test-set (tests/board/check-lava.py).
case $1 in
    start) [ -n "${2:-}" ] || { echo "lava-test-set: start needs a name" >&2; exit 1; }; echo "<LAVA_SIGNAL_TESTSET START $2>" ;;
    stop) echo "<LAVA_SIGNAL_TESTSET STOP>" ;;
    *) echo "lava-test-set: start NAME | stop" >&2; exit 1 ;;
esac
'''

STUB_REFERENCE = r'''#!/bin/sh
# Test double for LAVA's lava-test-reference (tests/board/check-lava.py).
[ "$2" = --result ] && [ "$4" = --reference ] || { echo "lava-test-reference: NAME --result R --reference URL" >&2; exit 1; }
echo "<LAVA_SIGNAL_TESTREFERENCE $1 $3 $5>"
'''


def shell_quote(v):
    return "'" + str(v).replace("'", "'\\''") + "'"


def render(testdef, parameters, clone):
    """The test shell script LAVA builds from a definition: params as plain variables, set -e, the steps."""
    lines = ['###default parameters from test definition###']
    lines += [f'{k}={shell_quote(v)}' for k, v in testdef.get('params', {}).items()]
    lines += ['######', '###test parameters from job submission###']
    lines += [f'{k}={shell_quote(v)}' for k, v in parameters.items()]
    lines += ['######', 'set -e', 'set -x', 'export TESTRUN_ID=0_' + testdef['metadata']['name'], 'cd ' + shell_quote(clone)]
    lines += testdef['run']['steps']
    return '\n'.join(lines) + '\n'


def write_script(path, text):
    with open(path, 'w') as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def parse_signals(out):
    """[(set or None, name, result, measurement, units)], and the problems of the set structure."""
    cases, problems, current = [], [], None
    for line in out.splitlines():
        m = re.search(r'<LAVA_SIGNAL_TESTSET (START|STOP)(?: (\S+))?>', line)
        if m:
            if m.group(1) == 'START':
                if current is not None:
                    problems.append(f'test set {m.group(2)} started inside {current}')
                current = m.group(2)
            else:
                if current is None:
                    problems.append('test set stopped without a start')
                current = None
            continue
        m = re.search(r'<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=(\S+) RESULT=(\w+)(?: UNITS=(\S+))?(?: MEASUREMENT=(\S+))?>', line)
        if m:
            cases.append((current, m.group(1), m.group(2), m.group(4), m.group(3)))
    if current is not None:
        problems.append(f'test set {current} never stopped')
    return cases, problems


def run_steps(src, workdir, selftest, npu_info, tag, parameters, corrupt=(), files=None, shell=('/bin/sh',)):
    """Runs the definition's steps in a fresh copy of board/ (plus `files`: path -> text) with the stubs on
    PATH, every script of the copy and every stub under `shell` (its #! line); returns (exit status,
    output, the copy's directory)."""
    shebang = '#!' + ' '.join(shell) + '\n'

    def write_exe(path, text):
        write_script(path, shebang + text.split('\n', 1)[1] if text.startswith('#!') else text)
    base = os.path.join(workdir, tag)
    shutil.rmtree(base, ignore_errors=True)
    clone, bindir = os.path.join(base, 'clone'), os.path.join(base, 'bin')
    shutil.copytree(os.path.join(src, 'board'), os.path.join(clone, 'board'))
    for path, text in (files or {}).items():
        with open(os.path.join(clone, path), 'w') as f:
            f.write(text)
    step = os.path.join(clone, 'board', 'lava', 'selftest-to-lava.sh')
    write_exe(step, open(step).read())
    os.makedirs(bindir)
    write_exe(os.path.join(bindir, 'lava-test-case'), STUB_CASE)
    write_exe(os.path.join(bindir, 'lava-test-set'), STUB_SET)
    write_exe(os.path.join(bindir, 'lava-test-reference'), STUB_REFERENCE)
    write_exe(os.path.join(bindir, 'npu-info'), f'#!/bin/sh\nexec {shell_quote(npu_info)} "$@"\n')
    # The planted failures go through the tool's hidden test-only option, added by this wrapper: the
    # definition and its script run unchanged.
    extra = ' '.join('--test-corrupt ' + shell_quote(c) for c in corrupt)
    write_exe(os.path.join(bindir, 'npurun-selftest'), f'#!/bin/sh\nexec {shell_quote(selftest)} "$@" {extra}\n')
    testdef = yaml.safe_load(open(os.path.join(clone, 'board', 'lava', 'npurun-selftest.yaml')))
    script = os.path.join(base, 'run.sh')
    with open(script, 'w') as f:
        f.write(render(testdef, parameters, clone))
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get('PATH', '/usr/bin:/bin'))
    r = subprocess.run(list(shell) + [script], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                       timeout=900, cwd=base)
    return r.returncode, r.stdout, clone


def steps(src, workdir, selftest, npu_info):
    os.makedirs(workdir, exist_ok=True)
    testdef, job = load(src)
    params = dict(job_definition(job)['parameters'])
    results = os.path.join(workdir, 'results')
    upload = os.path.join(workdir, 'upload')
    shutil.rmtree(upload, ignore_errors=True)
    os.makedirs(upload)
    # The job's own parameters, with the simulator instead of the NPU (no board here) and a local upload.
    params.update(DEVICE='sim', REQUIRE_NPU='false', RESULTS_DIR=results, UPLOAD_URL='file://' + upload)

    # 1. The board's lists, nothing planted: every case passes and is reported.
    code, out, clone = run_steps(src, workdir, selftest, npu_info, 'clean', params)
    if code != 0:
        fail(f'steps exit {code}:\n{out[-3000:]}')
        return
    cases, problems = parse_signals(out)
    for p in problems:
        fail(p)
    if not os.path.isfile(os.path.join(results, 'selftest.csv')):
        fail(f'no {results}/selftest.csv: the self-test did not run:\n{out[-3000:]}')
        return
    rows = list(csv.DictReader(open(os.path.join(results, 'selftest.csv'))))
    listed = subprocess.run([selftest, '--list'], stdout=subprocess.PIPE, text=True).stdout.split('\n')
    names = [l.split()[0] for l in listed if l.strip()]
    in_set = [(n, r, m, u) for s, n, r, m, u in cases if s == 'selftest-sim']
    if [n for n, _, _, _ in in_set] != names:
        fail(f'set selftest-sim: {len(in_set)} test cases for {len(names)} self-test cases (or another order)')
    for (n, r, m, u), row in zip(in_set, rows):
        if (n, r) != (row['name'], row['result']) or u != 'ms' or m != row['ms']:
            fail(f'set selftest-sim: {n} {r} {m} {u}, CSV says {row}')
    top = {n: r for s, n, r, m, u in cases if s is None}
    if top.get('npu-info') != 'pass' or top.get('npurun-selftest') != 'pass' or top.get('selftest-report-upload') != 'pass':
        fail(f'top-level test cases: {top}')
    if [c for c in cases if c[0] == 'expectations']:
        fail(f'set expectations not empty with empty lists: {[c for c in cases if c[0] == "expectations"]}')
    for f in ('selftest.html', 'selftest.json', 'selftest.csv', 'npu-info.txt'):
        if not os.path.isfile(os.path.join(upload, f)):
            fail(f'upload: {f} missing')
    if '<LAVA_SIGNAL_TESTREFERENCE selftest-report pass file://' not in out:
        fail('no lava-test-reference to the uploaded HTML report')
    passed = sum(1 for _, r, _, _ in in_set if r == 'pass')
    print(f'clean run: {len(cases)} LAVA test cases: {passed}/{len(in_set)} pass in set selftest-sim; top level {top}')
    print('  e.g. ' + next(l.strip() for l in out.splitlines() if 'TEST_CASE_ID=conv-u8-k1 ' in l))

    # The same under busybox ash, the shell of Buildroot images: the same test cases and results.
    busybox = shutil.which('busybox')
    if busybox:
        code, bout, _ = run_steps(src, workdir, selftest, npu_info, 'busybox', params, shell=(busybox, 'sh'))
        bcases, problems = parse_signals(bout)
        for p in problems:
            fail('busybox: ' + p)
        if code != 0 or [c[:3] for c in bcases] != [c[:3] for c in cases]:
            fail(f'busybox sh: exit {code}, {len(bcases)} test cases differ from /bin/sh\'s {len(cases)}:\n{bout[-2000:]}')
        else:
            print(f'busybox sh: the same {len(bcases)} LAVA test cases and results')
    else:
        print('note: busybox is not installed (tools/ci/install-deps.sh test): the steps ran under /bin/sh only')

    # The job's own parameters (DEVICE=npu, REQUIRE_NPU=true) where there is no NPU: what a farm sees
    # from a board that lost its NPU. npu-info fails, every case is skipped, the verdict fails.
    board = dict(job_definition(job)['parameters'], RESULTS_DIR=results + '-npu', UPLOAD_URL='')
    code, nout, _ = run_steps(src, workdir, selftest, npu_info, 'no-npu', board)
    ncases, problems = parse_signals(nout)
    ntop = {n: (r, m) for s_, n, r, m, u in ncases if s_ is None}
    if ntop.get('npu-info', ('',))[0] == 'pass':
        print('note: an NPU is present here; the no-NPU run is not checked')
    else:
        for p in problems:
            fail('no-npu: ' + p)
        skipped = [n for s_, n, r, m, u in ncases if s_ == 'selftest-npu' and r == 'skip']
        if code != 0 or len(skipped) != len(names) or ntop.get('npurun-selftest') != ('fail', '1'):
            fail(f'no NPU with the job\'s parameters: exit {code}, {len(skipped)} of {len(names)} skipped, {ntop}')
        else:
            print(f'job parameters without an NPU: npu-info fail, {len(skipped)} cases skip in set selftest-npu, '
                  f'verdict {ntop["npurun-selftest"]}')

    # 2. A failure listed as expected and one that is not: both fail in selftest-sim, the listed one
    # passes in set expectations, the verdict fails (the unlisted one).
    planted = dict(params, EXPECTATIONS='board/ci/planted')
    code, out, clone = run_steps(src, workdir, selftest, npu_info, 'planted', planted,
                                 corrupt=('sim:conv-u8-k1', 'sim:fc-u8-relu6'),
                                 files={'board/ci/planted-fails.txt': 'conv-u8-k1: planted by check-lava.py\n'})
    if code != 0:
        fail(f'planted run: steps exit {code} (results must still be reported):\n{out[-3000:]}')
    cases, problems = parse_signals(out)
    for p in problems:
        fail(p)
    got = {(s, n): r for s, n, r, _, _ in cases}
    want = {('selftest-sim', 'conv-u8-k1'): 'fail', ('selftest-sim', 'fc-u8-relu6'): 'fail',
            ('selftest-sim', 'fc-u8'): 'pass', ('expectations', 'conv-u8-k1'): 'pass',
            (None, 'npurun-selftest'): 'fail', (None, 'npu-info'): 'pass'}
    for k, v in want.items():
        if got.get(k) != v:
            fail(f'planted run: {k} is {got.get(k)}, expected {v}')
    if ('expectations', 'fc-u8-relu6') in got:
        fail('planted run: the unlisted failure appears in set expectations')
    verdict = [l.strip() for l in out.splitlines() if 'TEST_CASE_ID=npurun-selftest ' in l]
    print(f'planted run: conv-u8-k1 (listed) selftest-sim={got.get(("selftest-sim", "conv-u8-k1"))} '
          f'expectations={got.get(("expectations", "conv-u8-k1"))}; fc-u8-relu6 (unlisted) '
          f'selftest-sim={got.get(("selftest-sim", "fc-u8-relu6"))}; verdict {verdict}')


def main():
    mode, src = sys.argv[1], os.path.abspath(sys.argv[2])
    if mode == 'schema':
        schema(src)
    elif mode == 'steps':
        steps(src, os.path.abspath(sys.argv[3]), os.path.abspath(sys.argv[4]), os.path.abspath(sys.argv[5]))
    else:
        print(f'unknown mode {mode}')
        sys.exit(2)
    finish('all checks passed')


if __name__ == '__main__':
    main()
