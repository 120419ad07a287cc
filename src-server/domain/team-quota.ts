// A team's storage quota (decision 0026; issue 11): its own, set with `kikitori-server teams quota`,
// else the server's default, KIKITORI_TEAM_QUOTA_BYTES.

/** Where a team's own quota is stored: bytes, null for no quota, undefined when it has the default. */
export interface TeamQuotaSource {
  quotaOverride(teamId: string): Promise<number | null | undefined>;
}

/** The one place that decides a team's quota in bytes; undefined: no quota. */
export async function teamQuotaBytes(
  source: TeamQuotaSource,
  teamId: string,
  defaultBytes: number | undefined,
): Promise<number | undefined> {
  const own = await source.quotaOverride(teamId);
  if (own === undefined) return defaultBytes;
  return own ?? undefined;
}
