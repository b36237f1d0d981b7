/**
 * The membership of a SQLite store: one instance owns the file, so everything in it is this
 * process's. At start it ends or resumes every turn a previous life left (MemberHost.recoverAlone)
 * and follows every outbound task still open again; it leases nothing, has nobody to tell or
 * listen to, and takes nothing over.
 */
import type { Db } from '../store';
import type { ChannelListener, FollowResumer, MemberHost, Membership, OutboxWork, OwnedOutbox, StoreHealth, TurnWatch } from '../membership';

export class SingleMember implements Membership {
  constructor(private readonly prisma: () => Db) {}

  /** A key file under ./data serves: no other instance opens these secrets. */
  secretKeyProblem(): string | null {
    return null;
  }

  async join(host: MemberHost): Promise<void> {
    await host.recoverAlone();
  }

  /** Every outbound task still submitted or working, oldest first: their peers kept working. */
  async resumeFollows(resume: FollowResumer): Promise<number> {
    const tasks = await this.prisma().task.findMany({
      where: { state: { in: ['submitted', 'working'] }, direction: 'outbound' },
      orderBy: { createdAt: 'asc' },
      select: { id: true },
    });
    return tasks.filter((task) => resume(task.id)).length;
  }

  adoptOutbox(_outbox: OwnedOutbox, _work: OutboxWork): void {}

  turnStarted(_taskId: string, _done: Promise<void>, _watch: TurnWatch): void {}

  leaseWork(_taskId: string, _done: Promise<void>): void {}

  async listen(_channel: string, _listener: ChannelListener): Promise<void> {}

  async broadcast(_channel: string, _payload: string): Promise<void> {}

  async leave(): Promise<void> {}

  async health(): Promise<StoreHealth> {
    return { store: 'sqlite' };
  }
}
