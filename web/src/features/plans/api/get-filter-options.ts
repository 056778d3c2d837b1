import { apiClient } from '@/lib/api-client';
import type { FilterList, FilterOption, FilterOptions, PlanType } from '../types';

const LISTS: readonly FilterList[] = ['carriers', 'networks', 'metals', 'attributes'];

/** GET /api/plans/{type}/{carriers|networks|metals|attributes}: every filter group's options. */
export async function getFilterOptions(planType: PlanType, signal?: AbortSignal): Promise<FilterOptions> {
  const lists = await Promise.all(
    LISTS.map((list) => apiClient.get<FilterOption[]>(`/api/plans/${planType}/${list}`, { signal })),
  );
  return {
    carriers: lists[0] ?? [],
    networks: lists[1] ?? [],
    metals: lists[2] ?? [],
    attributes: lists[3] ?? [],
  };
}
