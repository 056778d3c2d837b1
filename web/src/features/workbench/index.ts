export { WorkbenchPage, type WorkbenchPageProps } from './components/workbench-page';
export type { ConsumerFormProps, ConsumerPlansProps, ConsumerRenderers, PreviewBackend } from './components/preview-tab';
