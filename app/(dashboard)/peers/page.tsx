import type { Metadata } from 'next';
import { PeersView } from '@/components/peers/peers-view';

export const metadata: Metadata = { title: 'Peers' };

export default function PeersPage() {
  return <PeersView />;
}
