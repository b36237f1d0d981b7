/** Issue 11 §6: a launcher that would hand the caller's text to a shell is refused at config load. */
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
    expect(issues({ type: 'process', command: ['python3', '-c', 'print("{prompt}")'] })[0]).toMatch(/^launcher\.command\.2: puts a placeholder inside the code "python3" runs/);
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
});
