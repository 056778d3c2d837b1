import { create } from 'zustand';
import type { Application } from '@/types/api';
import { getActiveApplication } from '../api/get-active-application';
import { resetActiveApplication } from '../api/reset-active-application';

interface ApplicationStore {
  application: Application | null;
  loaded: boolean;
  load: () => Promise<Application | null>;
  reset: () => Promise<Application | null>;
  clear: () => void;
  /** Store the application a save answered with (a step save returns it). */
  set: (application: Application) => void;
  /** Store the last step the server reports for this application (ignored for another one). */
  setLastStep: (applicationId: string, lastStep: number) => void;
}

export const useApplicationStore = create<ApplicationStore>()((set) => ({
  application: null,
  loaded: false,
  load: async () => {
    const application = await getActiveApplication();
    set({ application, loaded: true });
    return application;
  },
  reset: async () => {
    const application = await resetActiveApplication();
    set({ application, loaded: true });
    return application;
  },
  clear: () => set({ application: null }),
  set: (application) => set({ application, loaded: true }),
  setLastStep: (applicationId, lastStep) =>
    set(({ application }) =>
      application?.applicationId === applicationId && application.lastStep !== lastStep
        ? { application: { ...application, lastStep } }
        : {},
    ),
}));
