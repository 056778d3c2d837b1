import { create } from 'zustand';

/** The customer whose application an agent opened from the dashboard (Enroll), kept in memory only. */
export interface WorkingOn {
  applicationId: string;
  name: string;
}

export const useWorkingOnStore = create<{ workingOn: WorkingOn | null }>()(() => ({ workingOn: null }));
