export { get as default } from './lodash-stubs';
