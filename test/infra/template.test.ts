import { App, CfnResource, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { allResources, asObjects, asStrings, at, maybeAt, resourceList, resourceOf, resourcesOf } from './template';

/** The typed template reader the infra tests narrow through: a wrong shape fails, never passes unseen. */
const stack = new Stack(new App(), 'Reader');
const queue = new CfnResource(stack, 'Queue', {
  type: 'AWS::SQS::Queue',
  properties: { QueueName: 'jobs', Tags: [{ Key: 'team', Value: 'learning' }] },
});
queue.applyRemovalPolicy(RemovalPolicy.RETAIN);
new CfnResource(stack, 'Handle', { type: 'AWS::CloudFormation::WaitConditionHandle' }).addResourceDependency(queue);
const template = Template.fromStack(stack);

describe('template reader', () => {
  it('reads resources by type and logical ID with their policies and dependencies', () => {
    expect(Object.keys(resourcesOf(template, 'AWS::SQS::Queue'))).toEqual(['Queue']);
    expect(resourcesOf(template, 'AWS::SQS::Queue', { Properties: { QueueName: 'other' } })).toEqual({});
    const read = resourceOf(template, 'AWS::SQS::Queue', 'Queue');
    expect(read).toMatchObject({ Type: 'AWS::SQS::Queue', DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    expect(read.Properties.QueueName).toBe('jobs');
    const [handle] = resourceList(template, 'AWS::CloudFormation::WaitConditionHandle');
    expect(handle.Properties).toEqual({});
    expect(handle.DependsOn).toEqual(['Queue']);
    expect(Object.keys(allResources(template)).sort()).toEqual(['Handle', 'Queue']);
    expect(() => resourceOf(template, 'AWS::SQS::Queue', 'Missing')).toThrow('no AWS::SQS::Queue with the logical ID Missing');
  });

  it('follows a path of keys and indexes, and fails on a missing step with the path it expected', () => {
    const props = resourceOf(template, 'AWS::SQS::Queue', 'Queue').Properties;
    expect(at(props, 'Tags', 0, 'Value')).toBe('learning');
    expect(at(props, 'Tags', 0, 'Missing')).toBeUndefined();
    expect(() => at(props, 'Missing', 'Value')).toThrow('Missing: expected an object, got undefined');
    expect(() => at(props, 'QueueName', 0)).toThrow('QueueName: expected an array, got "jobs"');
    expect(maybeAt(props, 'Missing', 'Value')).toBeUndefined();
    expect(maybeAt(props, 'Tags', 0, 'Key')).toBe('team');
    expect(() => maybeAt(props, 'QueueName', 'Value')).toThrow('QueueName: expected an object');
  });

  it('narrows arrays of objects and strings element by element', () => {
    expect(asObjects([{ a: 1 }], 'list')).toEqual([{ a: 1 }]);
    expect(() => asObjects([{ a: 1 }, 'b'], 'list')).toThrow('list[1]: expected an object, got "b"');
    expect(() => asObjects({ a: 1 }, 'list')).toThrow('list: expected an array');
    expect(asStrings(['a', 'b'], 'names')).toEqual(['a', 'b']);
    expect(() => asStrings(['a', 2], 'names')).toThrow('names[1]: expected a string, got 2');
  });
});
