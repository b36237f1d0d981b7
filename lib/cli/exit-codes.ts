/**
 * The CLI's exit codes (README "Command line"). A followed task's ending has its own code, so a
 * script can tell a failure from a cancel, a question or a lost connection without parsing text.
 */
export const EXIT = {
  completed: 0,
  /** The request itself failed: the API refused it (bad input, conflict) or answered an error. */
  error: 1,
  /** Bad command line (unknown option, missing argument). */
  usage: 2,
  /** The Switchboard server could not be reached at SWITCHBOARD_URL. */
  unreachable: 3,
  /** The token was refused (401) or its role is not enough (403). */
  auth: 4,
  /** No such task or peer. */
  notFound: 5,
  failed: 10,
  canceled: 11,
  /** The task stopped to ask for input (input-required or auth-required); it is not over. */
  inputRequired: 12,
  rejected: 13,
  /**
   * Contact was lost, so the real outcome is unknown: the Switchboard stayed unreachable while
   * following, or our side gave up on the peer (`follow limit exceeded`, `peer lost the task`).
   */
  lostContact: 14,
  /** Ctrl-C: following stopped; the task goes on. */
  interrupted: 130,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** End reasons that mean "our side lost the peer", not "the work failed". */
const LOST_CONTACT_REASONS = [/^follow limit exceeded/, /^peer lost the task/];

/** The exit code for a task that stopped in `state` (terminal or waiting for input), or null if it is still running. */
export function exitCodeForState(state: string, endReason: string | null): ExitCode | null {
  switch (state) {
    case 'completed':
      return EXIT.completed;
    case 'failed':
      return endReason && LOST_CONTACT_REASONS.some((r) => r.test(endReason)) ? EXIT.lostContact : EXIT.failed;
    case 'canceled':
      return EXIT.canceled;
    case 'rejected':
      return EXIT.rejected;
    case 'input-required':
    case 'auth-required':
      return EXIT.inputRequired;
    default:
      return null;
  }
}

/** The exit codes as `--help` shows them (README "Exit codes" has the same table). */
export const EXIT_CODES_HELP = `
Environment:
  SWITCHBOARD_URL    the Switchboard to talk to (default http://127.0.0.1:3000)
  SWITCHBOARD_TOKEN  its operator or viewer token, sent as a Bearer token

Exit codes (dispatch --follow, tasks watch):
  0 completed   10 failed   11 canceled   12 input required   13 rejected
  14 lost contact (the outcome is unknown)   130 stopped with Ctrl-C (the task goes on)
Other exit codes:
  1 refused request   2 bad usage   3 Switchboard unreachable   4 token refused   5 unknown task or peer`;
