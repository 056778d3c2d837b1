export { uniqueId as default } from './lodash-stubs';
