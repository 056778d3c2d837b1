export { WorkbenchPage } from './components/workbench-page';
export type { ConsumerFormProps, PreviewBackend } from './components/preview-tab';
