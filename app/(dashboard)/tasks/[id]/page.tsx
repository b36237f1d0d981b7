import type { Metadata } from 'next';
import { TaskView } from '@/components/tasks/task-view';

export const metadata: Metadata = { title: 'Task' };

export default async function TaskPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <TaskView key={id} id={id} />;
}
