export { createNatsRelay, type NatsRelay, type NatsRelayOptions } from './nats-relay.ts';
