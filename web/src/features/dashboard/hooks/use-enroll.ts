import { useState } from 'react';
import { useWorkingOnStore } from '../stores/working-on-store';
import { rowName } from '../utils/format';
import { enroll } from '../api/enroll';
import { useDashboardActions } from '../components/dashboard-actions';
import type { DashboardRow } from '../types';

/** Enroll: the row's application becomes the session's and the wizard resumes it at its step. */
export function useEnroll() {
  const { resume } = useDashboardActions();
  const [enrolling, setEnrolling] = useState<string | null>(null);
  const [enrollError, setEnrollError] = useState(false);
  const onEnroll = async (row: DashboardRow) => {
    setEnrolling(row.application_id);
    setEnrollError(false);
    try {
      const { route } = await enroll(row.application_id);
      // The wizard then says whose application it is.
      useWorkingOnStore.setState({ workingOn: { applicationId: row.application_id, name: rowName(row) } });
      await resume(route);
    } catch {
      setEnrollError(true);
      setEnrolling(null);
    }
  };
  return { enrolling, enrollError, onEnroll };
}
