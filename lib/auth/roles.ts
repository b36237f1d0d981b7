export type Role = 'viewer' | 'operator';

export const ROLE_RANK: Record<Role, number> = { viewer: 1, operator: 2 };

export function roleAllows(has: Role, needs: Role): boolean {
  return ROLE_RANK[has] >= ROLE_RANK[needs];
}
