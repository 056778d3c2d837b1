import { apiClient } from '@/lib/api-client';
import type { CountyOption } from '@/types/api';

/**
 * The counties of a billing address by state and 5-digit ZIP (spec part 1, 7
 * `billingStateZip/{state}/{zip}`): a Michigan ZIP's counties; none for another state's ZIP (no
 * county is chosen there). A ZIP that is not the state's is refused (422, `errors.billing_zip`).
 */
export function getBillingCounties(applicationId: string, state: string, zip: string): Promise<CountyOption[]> {
  return apiClient.get<CountyOption[]>(
    `/api/application/${encodeURIComponent(applicationId)}/billingStateZip/${encodeURIComponent(state)}/${encodeURIComponent(zip)}`,
  );
}
