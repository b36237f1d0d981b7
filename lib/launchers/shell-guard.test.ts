/** A launcher that would hand the caller's text to a shell is refused at config load. */
import { describe, expect, it } from 'vitest';
import { formatLauncherIssues, LauncherSpecSchema } from './spec';

function issues(input: unknown): string[] {
  const result = LauncherSpecSchema.safeParse(input);
  return result.success ? [] : formatLauncherIssues(result.error);
}

describe('shell foot-guns in launcher.command', () => {
  it.each([
    [['sh', '-c', 'my-agent {prompt}'], 'command.0', 'sh'],
    [['/bin/bash', '-c', 'my-agent "$1"', 'bash', '{prompt}'], 'command.0', '/bin/bash'],
    [['bash', './agent.sh', '{prompt}'], 'command.0', 'bash'],
    [['cmd.exe', '/c', 'agent {prompt}'], 'command.0', 'cmd.exe'],
    [['pwsh', '-c', 'agent {prompt}'], 'command.0', 'pwsh'],
    [['powershell', '-Command', 'agent {prompt}'], 'command.0', 'powershell'],
    [['/usr/bin/env', 'FOO=1', 'zsh', '-c', 'agent {context_id}'], 'command.2', 'zsh'],
    [['timeout', '30', 'dash', '-c', 'agent {prompt}'], 'command.2', 'dash'],
    [['busybox', 'sh', '-c', 'agent {prompt}'], 'command.1', 'sh'],
  ])('%j is refused at %s, naming the shell', (command, key, shell) => {
    const [line] = issues({ type: 'process', command });
    expect(line).toMatch(new RegExp(`^launcher\\.${key.replace('.', '\\.')}: runs the shell "${shell.replace(/[./]/g, '\\$&')}" with a placeholder .*shell injection.*allowShell: true`));
  });

  it('inline interpreter code with a placeholder is refused; the value as its own argument is fine', () => {
    expect(issues({ type: 'process', command: ['python3', '-c', 'print("{prompt}")'] })[0]).toMatch(/^launcher\.command\.2: puts a placeholder in the inline code of "python3"/);
    expect(issues({ type: 'process', command: ['node', '-e', 'run(`{prompt}`)'] })[0]).toMatch(/^launcher\.command\.2: /);
    expect(issues({ type: 'process', command: ['python3', '-c', 'import sys; print(sys.argv[1])', '{prompt}'] })).toEqual([]);
    expect(issues({ type: 'process', command: ['my-agent', '--', '{prompt}'] })).toEqual([]);
  });

  it('a shell without placeholders (the prompt on stdin) is accepted', () => {
    expect(issues({ type: 'process', command: ['sh', './agent.sh'], stdin: 'prompt' })).toEqual([]);
  });

  it('the resume argv and rpc commands are checked too', () => {
    const resume = issues({ type: 'process', command: ['agent', '{prompt}'], resume: ['sh', '-c', 'agent --resume {session_id}'], output: { format: 'text', sessionIdRegex: 'session: (\\S+)' } });
    expect(resume[0]).toMatch(/^launcher\.resume\.0: runs the shell "sh"/);
    expect(issues({ type: 'rpc', command: ['bash', '-c', 'worker {context_id}'] })[0]).toMatch(/^launcher\.command\.0: runs the shell "bash"/);
  });

  it('allowShell: true is the explicit (dangerous) opt-in', () => {
    expect(issues({ type: 'process', command: ['sh', '-c', 'my-agent {prompt}'], allowShell: true })).toEqual([]);
    expect(issues({ type: 'process', command: ['sh', '-c', 'x {prompt}'], allowShell: 'yes' })[0]).toBe('launcher.allowShell: expected true or false');
  });

  // The shapes that slipped past a list of "shell at element 0".
  it.each([
    ['xargs sh -c', ['xargs', 'sh', '-c', 'agent {prompt}']],
    ['xargs -0 bash -c', ['xargs', '-0', '-n1', 'bash', '-c', 'agent "$0" {prompt}']],
    ['find -exec sh -c', ['find', '.', '-maxdepth', '0', '-exec', 'sh', '-c', 'agent {prompt}', ';']],
    ['sudo sh -c', ['sudo', 'sh', '-c', 'agent {prompt}']],
    ['sudo -u bot bash -c', ['sudo', '-u', 'bot', 'bash', '-c', 'agent {prompt}']],
    ['sudo -s', ['sudo', '-s', 'agent', '{prompt}']],
    ['ssh host cmd', ['ssh', 'worker.internal', 'agent {prompt}']],
    ['ssh host cmd arg', ['ssh', '-T', 'worker.internal', 'agent', '{prompt}']],
    ['env sh -c', ['env', 'sh', '-c', 'agent {prompt}']],
    ['env -S', ['env', '-S', 'agent --flag {prompt}']],
    ['nice -n 5 bash -c', ['nice', '-n', '5', 'bash', '-c', 'agent {prompt}']],
    ['docker exec sh -c', ['docker', 'exec', 'box', 'sh', '-c', 'agent {prompt}']],
    ['su -c', ['su', 'bot', '-c', 'agent {prompt}']],
    ['watch', ['watch', '-n', '1', 'agent {prompt}']],
    ['script -qc', ['script', '-qc', 'agent {prompt}', '/dev/null']],
    ['parallel', ['parallel', 'agent', ':::', '{prompt}']],
    ['node --eval=', ['node', '--eval=run(`{prompt}`)']],
    ['node -pe', ['node', '-pe', '"{prompt}"']],
    ['python -c attached', ['python3', '-cprint("{prompt}")']],
    ['python -m from the caller', ['python3', '-m', '{prompt}']],
    ['perl -ne', ['perl', '-ne', 'print "{prompt}"']],
    ['ruby -e', ['ruby', '-e', 'puts "{prompt}"']],
    ['php -r', ['php', '-r', 'echo "{prompt}";']],
    ['deno eval', ['deno', 'eval', 'console.log("{prompt}")']],
    ['awk program', ['awk', 'BEGIN { system("{prompt}") }']],
    ['sed e command', ['sed', '-e', 's/^/{prompt}/e', 'notes.txt']],
    ['interpreter script chosen by the caller', ['python3', '{prompt}']],
    ['the program chosen by the caller (spec.ts refuses it)', ['{prompt}', '--help']],
  ])('%s is refused', (_name, command) => {
    expect(issues({ type: 'process', command }).join('\n'), JSON.stringify(command)).toMatch(/shell injection|the code it runs|cannot contain placeholders/);
  });

  it.each([
    ['a program with the value as its own element', ['my-agent', '--', '{prompt}']],
    ['behind env and timeout', ['env', 'FOO=1', 'timeout', '30', 'my-agent', '--prompt={prompt}']],
    ['an interpreter running a script', ['python3', '-u', 'agent.py', '{prompt}']],
    ['node with a script and an option for it', ['node', '--max-old-space-size=512', 'agent.js', '--prompt={prompt}']],
    ['inline code reading sys.argv', ['python3', '-c', 'import sys; print(sys.argv[1])', '{prompt}']],
    ['sudo running a program', ['sudo', '-u', 'bot', 'my-agent', '{prompt}']],
    ['npx running a package', ['npx', '-y', 'some-agent', '{prompt}']],
    ['claude -p (not an interpreter)', ['claude', '-p', '{prompt}']],
  ])('%s is accepted', (_name, command) => {
    expect(issues({ type: 'process', command })).toEqual([]);
  });
});
